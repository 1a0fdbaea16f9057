//! A real PostgreSQL for tests, never a mock: `TOGUZ_TEST_DATABASE_URL` when set, else a
//! throwaway cluster this test process starts (initdb + pg_ctl in a temporary directory, on
//! a free port, as the `postgres` system user when we run as root) from Debian's binaries
//! under /usr/lib/postgresql/*/bin. A watchdog stops the cluster when the process exits.
//! Each test gets its own schema (`search_path`), so tests run side by side.
//!
//! Without either, the PostgreSQL tests print that they were skipped; with
//! `TOGUZ_REQUIRE_POSTGRES=1` (as `.ci/run` sets) a skip is a failure.

use crate::store::PostgresOptions;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// The running server: a base URL (no database options), and our cluster if we started it.
pub struct Server {
    pub url: String,
    pub cluster: Option<Cluster>,
}

/// A cluster this process started.
pub struct Cluster {
    pub bin: PathBuf,
    pub data: PathBuf,
    pub port: u16,
    user: Option<&'static str>,
    _dir: tempfile::TempDir,
}

static SERVER: OnceLock<Option<Server>> = OnceLock::new();
static SCHEMAS: AtomicU32 = AtomicU32::new(0);

/// The server, started once per test process; `None` (after saying so) when there is none.
pub fn server() -> Option<&'static Server> {
    let server = SERVER.get_or_init(|| {
        if let Ok(url) = std::env::var("TOGUZ_TEST_DATABASE_URL") {
            if !url.trim().is_empty() {
                return Some(Server { url, cluster: None });
            }
        }
        match Cluster::start(false) {
            Ok(Some(cluster)) => Some(Server {
                url: cluster.url(),
                cluster: Some(cluster),
            }),
            Ok(None) => None,
            Err(error) => {
                eprintln!("PostgreSQL: cannot start a throwaway cluster: {error}");
                None
            }
        }
    });
    if server.is_none() {
        let required = std::env::var("TOGUZ_REQUIRE_POSTGRES").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "TOGUZ_REQUIRE_POSTGRES=1 but no PostgreSQL: install it or set TOGUZ_TEST_DATABASE_URL"
        );
        eprintln!(
            "SKIPPED a PostgreSQL test: no PostgreSQL binaries under /usr/lib/postgresql and no \
             TOGUZ_TEST_DATABASE_URL"
        );
    }
    server.as_ref()
}

/// Options for a fresh, empty schema of the test server (`None`: skipped, see `server`).
pub async fn fresh() -> Option<PostgresOptions> {
    let server = server()?;
    let n = SCHEMAS.fetch_add(1, Ordering::SeqCst);
    let schema = format!("t{}_{}", std::process::id(), n);
    let (client, connection) = tokio_postgres::connect(&server.url, tokio_postgres::NoTls)
        .await
        .expect("connect to the test server");
    tokio::spawn(connection);
    client
        .batch_execute(&format!("CREATE SCHEMA {schema}"))
        .await
        .expect("create a schema");
    let sep = if server.url.contains('?') { '&' } else { '?' };
    let url = format!("{}{sep}options=-c%20search_path%3D{schema}", server.url);
    let mut options = PostgresOptions::new(&url);
    options.pool_size = 4;
    Some(options)
}

/// `fresh` for a test without a runtime of its own (one that starts `toguz` processes): the
/// URL of a fresh schema, or `None` (skipped).
pub fn fresh_url() -> Option<String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    rt.block_on(fresh()).map(|o| o.url)
}

/// A database for a benchmark: `TOGUZ_BENCH_DATABASE_URL`, or a durable throwaway cluster
/// (fsync on, as production runs). Its URL, and the cluster to keep alive while it is used;
/// `None` after saying "SKIPPED `what`" when there is neither.
pub fn bench_database(what: &str) -> Option<(String, Option<Cluster>)> {
    if let Ok(url) = std::env::var("TOGUZ_BENCH_DATABASE_URL") {
        return Some((url, None));
    }
    match Cluster::start(true) {
        Ok(Some(cluster)) => Some((cluster.url(), Some(cluster))),
        Ok(None) => {
            eprintln!("SKIPPED {what}: no PostgreSQL");
            None
        }
        Err(error) => {
            eprintln!("SKIPPED {what}: cannot start PostgreSQL: {error}");
            None
        }
    }
}

fn find_bin() -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("bin"))
        .filter(|bin| bin.join("initdb").exists() && bin.join("pg_ctl").exists())
        .collect();
    found.sort();
    found.pop()
}

fn free_port() -> std::io::Result<u16> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?.port())
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

impl Cluster {
    /// Starts a cluster; `durable` keeps fsync on (benchmarks), tests turn it off for speed.
    /// `Ok(None)` when PostgreSQL is not installed.
    pub fn start(durable: bool) -> Result<Option<Cluster>, String> {
        let Some(bin) = find_bin() else {
            return Ok(None);
        };
        let user = is_root().then_some("postgres");
        let dir = tempfile::Builder::new()
            .prefix("toguz-pg-")
            .tempdir()
            .map_err(|e| e.to_string())?;
        let data = dir.path().join("data");
        if let Some(user) = user {
            run(Command::new("chown").args([user, &dir.path().display().to_string()]))?;
        }
        let port = free_port().map_err(|e| e.to_string())?;
        let cluster = Cluster {
            bin,
            data,
            port,
            user,
            _dir: dir,
        };
        let data = cluster.data.display().to_string();
        cluster.pg(
            "initdb",
            &[
                "-D",
                &data,
                "-U",
                "toguz",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ],
        )?;
        let fsync = if durable { "on" } else { "off" };
        let conf = format!(
            "port = {port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{}'\n\
             max_connections = 300\nfsync = {fsync}\n",
            cluster.socket_dir().display()
        );
        std::fs::write(cluster.data.join("postgresql.auto.conf"), conf)
            .map_err(|e| e.to_string())?;
        cluster.start_server()?;
        cluster.watchdog()?;
        Ok(Some(cluster))
    }

    fn socket_dir(&self) -> &Path {
        self.data.parent().unwrap_or(Path::new("/tmp"))
    }

    pub fn url(&self) -> String {
        format!("postgres://toguz@127.0.0.1:{}/postgres", self.port)
    }

    fn pg(&self, tool: &str, args: &[&str]) -> Result<(), String> {
        let exe = self.bin.join(tool).display().to_string();
        let mut command = match self.user {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--", &exe]);
                c
            }
            None => Command::new(&exe),
        };
        command.args(args);
        run(&mut command)
    }

    fn start_server(&self) -> Result<(), String> {
        start_server_at(&self.bin, &self.data, self.user)
    }

    /// Stops the server at once, as a crash would (`-m immediate`).
    pub fn kill(&self) -> Result<(), String> {
        let data = self.data.display().to_string();
        self.pg("pg_ctl", &["-D", &data, "-m", "immediate", "-w", "stop"])
    }

    /// Starts it again after `kill`.
    pub fn restart(&self) -> Result<(), String> {
        self.start_server()
    }

    /// Starts it again after `kill`, `after` from now, on a thread of its own (a test goes
    /// on using the database meanwhile).
    pub fn restart_after(
        &self,
        after: std::time::Duration,
    ) -> std::thread::JoinHandle<Result<(), String>> {
        let (bin, data, user) = (self.bin.clone(), self.data.clone(), self.user);
        std::thread::spawn(move || {
            std::thread::sleep(after);
            start_server_at(&bin, &data, user)
        })
    }

    /// A shell that stops the cluster once this test process is gone. It runs as we do
    /// (the `postgres` user may not signal a root process, not even `kill -0`).
    fn watchdog(&self) -> Result<(), String> {
        let as_user = self
            .user
            .map(|u| format!("runuser -u {u} -- "))
            .unwrap_or_default();
        let script = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 1; done; \
             {as_user}{ctl} -D {data} -m immediate stop >/dev/null 2>&1",
            pid = std::process::id(),
            ctl = self.bin.join("pg_ctl").display(),
            data = self.data.display(),
        );
        Command::new("sh")
            .args(["-c", &script])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map(drop)
            .map_err(|e| e.to_string())
    }
}

fn run(command: &mut Command) -> Result<(), String> {
    let out = command.output().map_err(|e| format!("{command:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{command:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Starts the server of the cluster in `data` (its log beside it).
fn start_server_at(bin: &Path, data: &Path, user: Option<&'static str>) -> Result<(), String> {
    let log = data
        .parent()
        .unwrap_or(Path::new("/tmp"))
        .join("log")
        .display()
        .to_string();
    let exe = bin.join("pg_ctl").display().to_string();
    let data = data.display().to_string();
    let mut command = match user {
        Some(user) => {
            let mut c = Command::new("runuser");
            c.args(["-u", user, "--", &exe]);
            c
        }
        None => Command::new(&exe),
    };
    command.args(["-D", &data, "-l", &log, "-w", "-t", "60", "start"]);
    run(&mut command)
}
