//! The latency benchmarks' one way of printing what they measured (`cargo bench --bench
//! telegram_latency`, `web_play`): the same figures, in the same words, for every path.

use std::time::Duration;

/// Prints `what`'s samples: how many, the median, p90, p99, the least and the most.
pub fn report(what: &str, mut samples: Vec<Duration>) {
    assert!(!samples.is_empty(), "no move was measured");
    samples.sort();
    let n = samples.len();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{what}: n={n} median={:.2} ms p90={:.2} ms p99={:.2} ms min={:.2} ms max={:.2} ms",
        ms(samples[n / 2]),
        ms(samples[n * 9 / 10]),
        ms(samples[n * 99 / 100]),
        ms(samples[0]),
        ms(samples[n - 1])
    );
}
