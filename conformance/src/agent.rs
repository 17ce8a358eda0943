//! Agent text, for fitting and checking the default text estimate on what agents store most:
//! real sessions from public repositories (`agent-corpus/`, with `SOURCES.md` naming each
//! file's repository, commit and path), and generated tool output of the kinds that real
//! sessions are full of and that a tokenizer prices unlike prose: file reads with `cat -n`
//! line-number prefixes, short indented code lines, progress meters, column-aligned tables
//! and box drawing.
//!
//! Half of each is for the fit and half for the check: the sessions with an odd number train
//! and those with an even number are held out; the generated kinds are made from other
//! sources and other numbers for each half. Deterministic: the same texts every run.

/// Which half of the texts: the fit's, or the check's, which the fit never sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    /// The texts the weights are fitted on.
    Training,
    /// The texts the weights are checked on.
    Check,
}

/// The real sessions of a half, each as (file name, text), in the order of their names.
pub fn sessions(half: Half) -> Vec<(String, String)> {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/agent-corpus");
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .expect("the agent corpus is in the repository")
        .map(|entry| entry.expect("reads the corpus folder").path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "txt"))
        .collect();
    files.sort();
    files
        .into_iter()
        .filter_map(|path| {
            let name = path.file_stem()?.to_str()?.to_owned();
            let number: u32 = name.rsplit('-').next()?.parse().ok()?;
            let wanted = matches!((half, number % 2), (Half::Training, 1) | (Half::Check, 0));
            wanted.then(|| {
                let text = std::fs::read_to_string(&path).expect("a corpus file is UTF-8");
                (name, text)
            })
        })
        .collect()
}

/// The sessions of a half, by the agent that wrote them (the part of the name before its
/// number), each agent's sessions joined.
pub fn agents(half: Half) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (name, text) in sessions(half) {
        let agent = name
            .rsplit_once('-')
            .map_or(name.as_str(), |(agent, _)| agent)
            .to_owned();
        match out.last_mut() {
            Some((last, joined)) if *last == agent => joined.push_str(&text),
            _ => out.push((agent, text)),
        }
    }
    out
}

/// The generated kinds of a half, each as (kind, text): `code` is the source the file reads
/// show, different for each half.
pub fn kinds(half: Half, code: &str) -> Vec<(&'static str, String)> {
    let mut n = Numbers(match half {
        Half::Training => 0x2545_f491_4f6c_dd1d,
        Half::Check => 0x9e37_79b9_7f4a_7c15,
    });
    vec![
        ("file read, cat -n with →", cat_n(code, '→')),
        ("file read, cat -n with a tab", cat_n(code, '\t')),
        ("short indented code", indented(&mut n)),
        ("progress meters", progress(&mut n)),
        ("column-aligned tables", tables(&mut n)),
        ("box drawing", boxes(&mut n)),
    ]
}

/// A file as Claude Code's `Read` (`     1→`) or `cat -n` (`     1\t`) shows it.
fn cat_n(code: &str, separator: char) -> String {
    code.lines()
        .enumerate()
        .map(|(at, line)| format!("{:>6}{separator}{line}\n", at + 1))
        .collect()
}

const NAMES: [&str; 12] = [
    "x",
    "y",
    "i",
    "n",
    "total",
    "count",
    "self.size",
    "result",
    "offset",
    "ok",
    "data",
    "err",
];

/// Short lines of indented code: assignments, returns, calls and closing brackets.
fn indented(n: &mut Numbers) -> String {
    let mut out = String::new();
    for _ in 0..400 {
        let indent = " ".repeat([2, 4, 4, 8, 8, 12][n.next(6) as usize]);
        let name = NAMES[n.next(NAMES.len() as u64) as usize];
        let line = match n.next(6) {
            0 | 1 => format!("{name} = {}", n.next(1000)),
            2 => format!("{name} += 1"),
            3 => format!("return {name}"),
            4 => format!("{name} = f({}, {})", n.next(100), n.next(10)),
            _ => ["}", "});", "]", "end", "fi", "pass"][n.next(6) as usize].to_owned(),
        };
        out.push_str(&indent);
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Progress meters as tools print them: curl's, pip's, tqdm's, apt's and docker's, with the
/// carriage returns that redraw them.
fn progress(n: &mut Numbers) -> String {
    let mut out = String::from(
        "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n",
    );
    let size = 1 + n.next(90);
    for step in 0..40u64 {
        let percent = step * 100 / 39;
        out.push_str(&format!(
            "\r{percent:>3} {size:>4}M  {percent:>3} {:>5}k    0     0  {:>5}k      0  0:00:{:02}  0:00:{:02}  0:00:{:02} {:>5}k",
            size * 1024 * percent / 100,
            1000 + n.next(9000),
            10 + n.next(50),
            step,
            n.next(60),
            1000 + n.next(9000),
        ));
    }
    out.push('\n');
    for package in [
        "numpy",
        "torch",
        "pandas",
        "scipy",
        "pyarrow",
        "transformers",
    ] {
        let total = 1 + n.next(800);
        out.push_str(&format!(
            "Collecting {package}\n  Downloading {package}-{}.{}.{}-cp312-cp312-manylinux_2_17_x86_64.whl ({total}.{} MB)\n",
            n.next(3),
            n.next(30),
            n.next(10),
            n.next(10)
        ));
        for step in 1..=8u64 {
            let bar = "━".repeat((step * 5) as usize) + &" ".repeat((40 - step * 5) as usize);
            out.push_str(&format!(
                "\r     {bar} {:.1}/{total}.0 MB {}.{} MB/s eta 0:00:{:02}",
                (total * step) as f64 / 8.0,
                n.next(90),
                n.next(10),
                n.next(60)
            ));
        }
        out.push('\n');
    }
    for step in 0..=20u64 {
        let full = step / 2;
        let bar = "█".repeat(full as usize) + if step % 2 == 1 { "▌" } else { "" };
        out.push_str(&format!(
            "\rEpoch {}: {:>3}%|{bar:<10}| {}/{} [00:{:02}<00:{:02}, {}.{:02}it/s, loss={}.{:04}]",
            1 + n.next(9),
            step * 5,
            step * 25,
            500,
            n.next(60),
            n.next(60),
            n.next(40),
            n.next(100),
            n.next(3),
            n.next(10_000)
        ));
    }
    out.push('\n');
    for layer in 0..12 {
        out.push_str(&format!(
            "{:012x}: Downloading [=====>{}]  {}.{}MB/{}.{}MB\n",
            n.next(u64::MAX >> 16),
            " ".repeat(40 - layer * 3),
            n.next(99),
            n.next(10),
            100 + n.next(900),
            n.next(10)
        ));
    }
    out
}

/// Tables aligned in columns: `ps aux`, `ls -l`, `docker ps` and `df -h`.
fn tables(n: &mut Numbers) -> String {
    let mut out = String::from(
        "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n",
    );
    let commands = [
        "/sbin/init",
        "/usr/lib/systemd/systemd-journald",
        "python3 -m http.server 8000",
        "node /app/server.js",
        "postgres: checkpointer",
        "/usr/bin/dockerd -H fd://",
        "bash",
        "sleep infinity",
    ];
    for _ in 0..60 {
        out.push_str(&format!(
            "{:<8} {:>7} {:>4}.{} {:>4}.{} {:>6} {:>5} {:<8} {:<4} {:>2}:{:02}   {}:{:02} {}\n",
            ["root", "postgres", "www-data", "agent"][n.next(4) as usize],
            1 + n.next(99_999),
            n.next(99),
            n.next(10),
            n.next(20),
            n.next(10),
            n.next(9_999_999),
            n.next(999_999),
            ["?", "pts/0", "pts/1"][n.next(3) as usize],
            ["Ss", "S", "R+", "Sl", "S<"][n.next(5) as usize],
            n.next(24),
            n.next(60),
            n.next(60),
            n.next(60),
            commands[n.next(commands.len() as u64) as usize],
        ));
    }
    out.push_str(&format!("total {}\n", n.next(10_000)));
    let files = [
        "Cargo.toml",
        "README.md",
        "src",
        "target",
        "tests",
        "build.rs",
        ".gitignore",
        "package.json",
        "node_modules",
    ];
    for file in files {
        out.push_str(&format!(
            "{} {:>2} agent agent {:>8} Nov {:>2} {:02}:{:02} {file}\n",
            ["-rw-r--r--", "drwxr-xr-x", "-rwxr-xr-x"][n.next(3) as usize],
            1 + n.next(12),
            n.next(999_999),
            1 + n.next(30),
            n.next(24),
            n.next(60),
        ));
    }
    out.push_str("CONTAINER ID   IMAGE              COMMAND                  CREATED        STATUS        PORTS                    NAMES\n");
    for _ in 0..12 {
        out.push_str(&format!(
            "{:012x}   {:<18} \"{:<22}\"   {} hours ago   Up {} hours   0.0.0.0:{}->{}/tcp   {}_{}\n",
            n.next(u64::MAX >> 16),
            ["postgres:16", "redis:7-alpine", "nginx:latest", "app:dev"][n.next(4) as usize],
            ["docker-entrypoint.s…", "nginx -g 'daemon of…", "python -m app"][n.next(3) as usize],
            1 + n.next(23),
            1 + n.next(23),
            1024 + n.next(60_000),
            [5432, 6379, 80, 8000][n.next(4) as usize],
            ["api", "db", "cache", "web"][n.next(4) as usize],
            1 + n.next(9),
        ));
    }
    out.push_str("Filesystem      Size  Used Avail Use% Mounted on\n");
    for mount in ["/", "/dev/shm", "/boot", "/var/lib/docker", "/home"] {
        out.push_str(&format!(
            "/dev/nvme0n1p{} {:>5}G {:>4}G {:>4}G {:>3}% {mount}\n",
            1 + n.next(4),
            10 + n.next(990),
            n.next(500),
            n.next(500),
            n.next(100)
        ));
    }
    out
}

/// Box drawing: tables drawn with lines, directory trees, and rules.
fn boxes(n: &mut Numbers) -> String {
    let widths = [
        4 + n.next(12) as usize,
        4 + n.next(8) as usize,
        6 + n.next(20) as usize,
    ];
    let rule = |left: &str, middle: &str, right: &str| {
        let cells: Vec<String> = widths.iter().map(|&width| "─".repeat(width + 2)).collect();
        format!("{left}{}{right}\n", cells.join(middle))
    };
    let mut out = rule("┌", "┬", "┐");
    for row in 0..24 {
        let cells = [
            format!("item_{row}"),
            format!("{}", n.next(100_000)),
            ["ok", "failed", "skipped", "passed in 0.3s"][n.next(4) as usize].to_owned(),
        ];
        let line: Vec<String> = cells
            .iter()
            .zip(widths)
            .map(|(cell, width)| format!(" {cell:<width$} "))
            .collect();
        out.push_str(&format!("│{}│\n", line.join("│")));
        if row % 6 == 5 {
            out.push_str(&rule("├", "┼", "┤"));
        }
    }
    out.push_str(&rule("└", "┴", "┘"));
    let names = [
        "src",
        "lib.rs",
        "main.rs",
        "tests",
        "mod.rs",
        "Cargo.toml",
        "docs",
        "index.md",
    ];
    out.push_str(".\n");
    for _ in 0..40 {
        let depth = n.next(4) as usize;
        let last = n.next(3) == 0;
        out.push_str(&"│   ".repeat(depth));
        out.push_str(if last { "└── " } else { "├── " });
        out.push_str(names[n.next(names.len() as u64) as usize]);
        out.push('\n');
    }
    for _ in 0..12 {
        let width = 20 + n.next(100) as usize;
        let line = ["─", "━", "═"][n.next(3) as usize].repeat(width);
        out.push_str(&format!("{line}\n  Section {}\n{line}\n", n.next(100)));
    }
    out
}

/// A little generator of numbers, the same every run.
struct Numbers(u64);

impl Numbers {
    fn next(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) % below.max(1)
    }
}
