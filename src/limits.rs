//! Reading the process's memory use and the machine's, for the memory guard and the
//! reports (Linux `/proc`; `None` elsewhere).

fn status_kb(field: &str) -> Option<usize> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with(field))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Peak resident memory of this process so far, in bytes.
pub fn peak_memory() -> Option<usize> {
    status_kb("VmHWM:")
}

/// Resident memory of this process now, in bytes.
pub fn current_memory() -> Option<usize> {
    status_kb("VmRSS:")
}

/// Physical memory of the machine, in bytes.
pub fn physical_memory() -> Option<usize> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Memory the machine can give to new allocations without swapping (`MemAvailable`),
/// in bytes.
pub fn available_memory() -> Option<usize> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
