//! What the tests of the example program share: running it as a user runs it.

#![allow(dead_code)] // Each test file uses some of these.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// `cargo test` builds the examples before it runs the tests, beside the test binaries.
pub fn example() -> Command {
    let mut path: PathBuf = std::env::current_exe().unwrap();
    path.pop();
    if path.ends_with("deps") {
        path.pop();
    }
    path.push("examples");
    path.push(format!("replay{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "the example is not built at {}",
        path.display()
    );
    Command::new(path)
}

pub fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = example()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

pub fn stdout_json(output: &Output) -> serde_json::Value {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Writes a file under the system's temporary directory for one test.
pub fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("replay-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}
