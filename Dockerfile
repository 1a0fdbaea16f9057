# toguz: build with Rust, run on a small Debian image as a non-root user.
#   docker build -t toguz .
#   docker run -v toguz-data:/data -v $PWD/toguz.toml:/etc/toguz/toguz.toml:ro \
#       -e TELEGRAM_TOKEN=... toguz
# The config's [storage] path (default "toguz-data") is relative to /data, the volume.

FROM rust:1.95-bookworm AS builder
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin toguz

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin toguz \
    && mkdir -p /data /etc/toguz \
    && chown toguz:toguz /data
COPY --from=builder /src/target/release/toguz /usr/local/bin/toguz
COPY config.example.toml /etc/toguz/config.example.toml
USER toguz
WORKDIR /data
# The sled database: games, challenges and language choices live here.
VOLUME ["/data"]
ENV RUST_LOG=info
ENTRYPOINT ["toguz", "run"]
CMD ["--config", "/etc/toguz/toguz.toml"]
