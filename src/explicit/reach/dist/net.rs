//! The TCP connections between the processes of a distributed search, made here rather
//! than by timely's own `Config::Cluster` setup, which retries an unreachable peer
//! forever and reports its progress on standard output: here every process listens on
//! its own address, connects to every process of a lower index, and gives up with a
//! clear error after a timeout. Each connection opens with a handshake (a magic word,
//! the sender's index, the number of processes and a fingerprint of the run) so that a
//! stray client or a process started on another model or size is refused by name. The
//! connected sockets are then handed to timely
//! (`initialize_networking_from_sockets`), which runs the dataflow over them.

use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

/// The first bytes of every connection.
const MAGIC: &[u8; 8] = b"nfold-tm";
/// How long to wait between attempts to reach a peer that is not listening yet.
const RETRY: Duration = Duration::from_millis(50);

/// One connection per other process (`None` at `me`), each past its handshake.
pub(super) fn connect(
    addresses: &[String],
    me: usize,
    fingerprint: u64,
    timeout: Duration,
) -> Result<Vec<Option<TcpStream>>, String> {
    let deadline = Instant::now() + timeout;
    let n = addresses.len();
    let listener = TcpListener::bind(addresses[me].as_str())
        .map_err(|e| format!("process {me} cannot listen on {}: {e}", addresses[me]))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("process {me}: {e}"))?;
    let mut socks: Vec<Option<TcpStream>> = (0..n).map(|_| None).collect();
    for (j, addr) in addresses.iter().enumerate().take(me) {
        let mut s = reach(addr, j, me, deadline, timeout)?;
        let mut hello = Vec::with_capacity(32);
        hello.extend_from_slice(MAGIC);
        for x in [me as u64, n as u64, fingerprint] {
            hello.extend_from_slice(&x.to_be_bytes());
        }
        s.write_all(&hello)
            .map_err(|e| format!("process {me}: handshake with process {j} at {addr}: {e}"))?;
        socks[j] = Some(s);
    }
    let mut waiting = n - me - 1;
    while waiting > 0 {
        match listener.accept() {
            Ok((mut s, from)) => {
                s.set_nonblocking(false)
                    .and_then(|_| s.set_read_timeout(Some(Duration::from_secs(5))))
                    .map_err(|e| format!("process {me}: {e}"))?;
                let mut hello = [0u8; 32];
                if s.read_exact(&mut hello).is_err() || &hello[..8] != MAGIC {
                    // Not one of ours (a port scan, another program): ignored.
                    continue;
                }
                let (words, _) = hello.as_chunks::<8>();
                let word = |i: usize| u64::from_be_bytes(words[i]);
                let (j, peers, print) = (word(1) as usize, word(2) as usize, word(3));
                if peers != n || print != fingerprint {
                    return Err(format!(
                        "process {me}: the process connecting from {from} runs another search \
                         ({peers} processes, or another model, size or options): start every \
                         process with the same command but for --process"
                    ));
                }
                if j <= me || j >= n || socks[j].is_some() {
                    return Err(format!(
                        "process {me}: a second process claims index {j} (from {from}): \
                         every process needs its own --process index"
                    ));
                }
                s.set_read_timeout(None)
                    .map_err(|e| format!("process {me}: {e}"))?;
                socks[j] = Some(s);
                waiting -= 1;
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    let missing: Vec<String> = (me + 1..n)
                        .filter(|&j| socks[j].is_none())
                        .map(|j| format!("{j} ({})", addresses[j]))
                        .collect();
                    return Err(format!(
                        "process {me}: process(es) {} did not connect to {} within {} s \
                         (--connect-timeout)",
                        missing.join(", "),
                        addresses[me],
                        timeout.as_secs()
                    ));
                }
                std::thread::sleep(RETRY);
            }
            Err(e) => return Err(format!("process {me}: accepting on {}: {e}", addresses[me])),
        }
    }
    for s in socks.iter().flatten() {
        s.set_nodelay(true)
            .map_err(|e| format!("process {me}: {e}"))?;
    }
    Ok(socks)
}

/// Connect to process `j` at `addr`, retrying until `deadline`.
fn reach(
    addr: &str,
    j: usize,
    me: usize,
    deadline: Instant,
    timeout: Duration,
) -> Result<TcpStream, String> {
    let targets: Vec<_> = addr
        .to_socket_addrs()
        .map_err(|e| format!("process {me}: the address of process {j}, `{addr}`: {e}"))?
        .collect();
    loop {
        let mut last = String::from("no address");
        for t in &targets {
            match TcpStream::connect_timeout(t, RETRY.max(Duration::from_millis(500))) {
                Ok(s) => return Ok(s),
                Err(e) => last = e.to_string(),
            }
        }
        if Instant::now() >= deadline {
            return Err(format!(
                "process {me}: process {j} at {addr} was not reachable within {} s \
                 (--connect-timeout): {last}",
                timeout.as_secs()
            ));
        }
        std::thread::sleep(RETRY);
    }
}

/// The addresses of a hostfile: one `host:port` a line, process 0 first; blank lines and
/// lines starting with `#` are skipped. Exactly `processes` addresses are needed.
pub(super) fn read_hostfile(path: &str, processes: usize) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the hostfile {path}: {e}"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        if l.rsplit_once(':')
            .is_none_or(|(h, p)| h.is_empty() || p.parse::<u16>().is_err())
        {
            return Err(format!(
                "{path}:{}:1: error: `{l}` is not an address `host:port`",
                i + 1
            ));
        }
        out.push(l.to_string());
    }
    if out.len() != processes {
        return Err(format!(
            "the hostfile {path} has {} address(es) for {processes} process(es) (--processes): \
             it needs one line `host:port` per process, process 0 first",
            out.len()
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostfile_errors_are_clear() {
        let dir = std::env::temp_dir().join(format!("nfold-hosts-{}", std::process::id()));
        std::fs::write(&dir, "# cluster\n127.0.0.1:7001\n\nlocalhost:7002\n").unwrap();
        let p = dir.to_str().unwrap();
        assert_eq!(
            read_hostfile(p, 2).unwrap(),
            vec!["127.0.0.1:7001", "localhost:7002"]
        );
        assert!(
            read_hostfile(p, 3)
                .unwrap_err()
                .contains("2 address(es) for 3")
        );
        std::fs::write(&dir, "127.0.0.1\n").unwrap();
        assert!(read_hostfile(p, 1).unwrap_err().contains(":1:1: error:"));
        std::fs::remove_file(&dir).unwrap();
        assert!(read_hostfile(p, 1).unwrap_err().contains("cannot read"));
    }

    #[test]
    fn an_absent_peer_is_an_error_after_the_timeout() {
        // Process 1 of 2 whose process 0 never listens: a port nobody holds.
        let free = TcpListener::bind("127.0.0.1:0").unwrap();
        let dead = free.local_addr().unwrap().to_string();
        drop(free);
        let mine = TcpListener::bind("127.0.0.1:0").unwrap();
        let me = mine.local_addr().unwrap().to_string();
        drop(mine);
        let t0 = Instant::now();
        let e = connect(&[dead, me], 1, 7, Duration::from_secs(1)).unwrap_err();
        assert!(e.contains("not reachable within 1 s"), "{e}");
        assert!(t0.elapsed() < Duration::from_secs(5));
    }
}
