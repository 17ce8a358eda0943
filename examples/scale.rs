//! How replay scales: time and peak memory for records from megabytes to a gigabyte.
//!
//! ```text
//! cargo run --release --example scale -- [MEGABYTES ...]     (default: 10 100 1000)
//! ```
//!
//! For each size it writes a realistic record file of about that many megabytes (tool
//! outputs, prose, reasoning, images) to a temporary folder, then measures, in a fresh
//! process, reading it, `parse_record`, `replay_messages` and the Anthropic renderer writing
//! its request to a sink, with the process's peak resident memory (Linux `VmHWM`).

use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use transcript_replay::{anthropic, parse_record, replay_messages, Vision};

/// A 1x1 PNG, padded with zero bytes to about 100 KB of base64.
fn image() -> String {
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC";
    format!("{png}{}", "A".repeat(100_000 - png.len()))
}

/// Writes a record of about `megabytes` MB, one message at a time.
fn generate(path: &Path, megabytes: usize) -> io::Result<()> {
    let mut out = BufWriter::new(std::fs::File::create(path)?);
    let target = megabytes * 1_000_000;
    let image = image();
    let log_line =
        "test auth::login_keeps_session ... ok\\n\\tat \\\"auth/src/session.rs\\\":31\\n";
    let mut written = 0;
    let mut index = 0usize;
    out.write_all(b"{\"version\":1,\"messages\":[")?;
    while written < target {
        let mut message = String::new();
        if index > 0 {
            message.push(',');
        }
        match index % 4 {
            0 => {
                message.push_str(r#"{"role":"user","blocks":[{"type":"text","text":"The login test fails; here is the log."}"#);
                if index % 100 == 0 {
                    let _ = write!(message, r#",{{"type":"image","media_type":"image/png","data":"{image}"}}"#);
                }
                message.push_str(r#"],"timestamp":"2026-08-13T10:00:00Z"}"#);
            }
            1 => {
                let _ = write!(
                    message,
                    r#"{{"role":"assistant","blocks":[{{"type":"reasoning","reasoning":"Run the test."}},{{"type":"tool_use","id":"t{index}","name":"bash","input":"{{\"command\":\"cargo test\"}}"}}],"usage":{{"input_tokens":1800,"output_tokens":90}}}}"#
                );
            }
            2 => {
                let lines = 50 + index % 300;
                let _ = write!(
                    message,
                    r#"{{"role":"tool","blocks":[{{"type":"tool_result","tool_use_id":"t{}","tool_name":"bash","output":"{}","is_error":{}}}]}}"#,
                    index - 1,
                    log_line.repeat(lines),
                    index % 3 == 0
                );
            }
            _ => message.push_str(
                r#"{"role":"assistant","blocks":[{"type":"text","text":"Line 31 compares local time with UTC; comparing instants fixes it."}]}"#,
            ),
        }
        out.write_all(message.as_bytes())?;
        written += message.len();
        index += 1;
    }
    out.write_all(b"]}")?;
    out.flush()
}

/// Peak resident memory of this process in bytes, where the system says.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}

struct Counter(u64);

impl Write for Counter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0 += bytes.len() as u64;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Measures one file in this process and prints one line of figures.
fn measure(path: &Path) -> Result<(), String> {
    let start = Instant::now();
    let json = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    let read = start.elapsed();
    let start = Instant::now();
    let record = parse_record(&json).map_err(|error| error.to_string())?;
    let parse = start.elapsed();
    let file = json.len() as u64;
    // The text is no longer needed: the record owns its strings.
    drop(json);
    let start = Instant::now();
    let wire = replay_messages(&record, Vision::Sees);
    let replay = start.elapsed();
    let start = Instant::now();
    let mut sink = Counter(0);
    serde_json::to_writer(&mut sink, &anthropic::render(&wire))
        .map_err(|error| error.to_string())?;
    let render = start.elapsed();
    let peak = peak_memory();
    let total = read + parse + replay + render;
    println!(
        "{:>9.1} MB {:>10} msgs  read {:>7.3} s  parse {:>7.3} s  replay {:>6.3} s  render+write {:>7.3} s  total {:>7.3} s ({:>6.1} MB/s)  peak {}  request {:.1} MB",
        file as f64 / 1e6,
        record.len(),
        read.as_secs_f64(),
        parse.as_secs_f64(),
        replay.as_secs_f64(),
        render.as_secs_f64(),
        total.as_secs_f64(),
        file as f64 / 1e6 / total.as_secs_f64(),
        peak.map_or("unknown".to_owned(), |peak| format!("{:.2}x the file", peak as f64 / file as f64)),
        sink.0 as f64 / 1e6,
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [command, path] = args.as_slice() {
        if command == "measure" {
            return match measure(Path::new(path)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(problem) => {
                    eprintln!("scale: {problem}");
                    ExitCode::FAILURE
                }
            };
        }
    }
    let sizes: Result<Vec<usize>, _> = if args.is_empty() {
        Ok(vec![10, 100, 1000])
    } else {
        args.iter().map(|size| size.parse::<usize>()).collect()
    };
    let Ok(sizes) = sizes else {
        eprintln!("usage: scale [MEGABYTES ...]");
        return ExitCode::from(2);
    };
    let folder: PathBuf =
        std::env::temp_dir().join(format!("transcript-replay-scale-{}", std::process::id()));
    let run = || -> Result<(), String> {
        std::fs::create_dir_all(&folder).map_err(|error| error.to_string())?;
        let me = std::env::current_exe().map_err(|error| error.to_string())?;
        for megabytes in sizes {
            let path = folder.join(format!("record-{megabytes}mb.json"));
            generate(&path, megabytes)
                .map_err(|error| format!("cannot write {}: {error}", path.display()))?;
            let status = Command::new(&me)
                .arg("measure")
                .arg(&path)
                .status()
                .map_err(|error| error.to_string())?;
            std::fs::remove_file(&path).map_err(|error| error.to_string())?;
            if !status.success() {
                return Err(format!("measuring {megabytes} MB failed"));
            }
        }
        Ok(())
    };
    let result = run();
    let _ = std::fs::remove_dir_all(&folder);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(problem) => {
            eprintln!("scale: {problem}");
            ExitCode::FAILURE
        }
    }
}
