//! The texts the default text estimate's weights are fitted on
//! (`cargo run -p transcript-replay-conformance --example fit_text_estimate`), kept apart from
//! the texts in [`corpus`](crate::corpus) that the estimate is checked on, so that the errors
//! the README reports are measured on text the fit never saw.
//!
//! Every kind the check has, from other sources: prose from the doc comments of this crate,
//! code from its sources (not `src/render/mod.rs` or `src/render/native_images.rs`, which the check reads), JSON from the other
//! providers' specs (not Gemini's), logs of other shapes, CJK text including Korean, emoji
//! with and without words, and noise as base64, hexadecimal digests and UUIDs.
//! Deterministic: the same texts, so the same weights, for the same sources.

use crate::records::base64;

/// The kinds of text, each with its texts.
pub fn texts() -> Vec<(&'static str, String)> {
    vec![
        ("prose", prose()),
        ("code", code()),
        ("json", json()),
        ("logs", logs()),
        ("cjk", CJK.to_owned()),
        ("emoji", emoji()),
        ("noise", noise()),
    ]
}

/// The doc comments of the crate's sources (not the README or the changelog, which report
/// the fit's results: the fit would change with them), and a little prose of other languages.
fn prose() -> String {
    let mut out = String::new();
    for source in SOURCES {
        for line in source.lines() {
            let line = line.trim_start();
            if let Some(doc) = line
                .strip_prefix("///")
                .or_else(|| line.strip_prefix("//!"))
            {
                out.push_str(doc.trim_start());
                out.push('\n');
            }
        }
    }
    out.push_str(MARKDOWN);
    out.push_str(EUROPEAN);
    out
}

/// An assistant's answer in Markdown, as models write them: headings, lists, emphasis, inline
/// code and links.
const MARKDOWN: &str = r#"
## What I found

The failing test is **not** flaky: it fails whenever the session store returns an entry whose
`expires_at` is in the past *and* the request carries a `return_to` parameter. Three things
go wrong together:

1. `redirect_for` compares `expires_at` (UTC) with `now` (local time), so for anyone east of
   Greenwich the session looks valid for a few more hours.
2. The middleware drops the query string before it builds the redirect, so `return_to` is
   lost even when the comparison is right.
3. The sign-in page shows "Your session has timed out" for every redirect, including a
   sign-out the user asked for.

### The fix

- Compare both times in UTC (`SystemTime` is already UTC; the bug was the `chrono::Local`
  conversion in `session/clock.rs`, line 41).
- Keep the original path and query in `return_to`, percent-encoded, and check on sign-in that
  it is a path on our own host (otherwise it is an open redirect; see
  [OWASP's cheat sheet](https://cheatsheetseries.owasp.org/cheatsheets/Unvalidated_Redirects_and_Forwards_Cheat_Sheet.html)).
- Add a `reason=expired` flag to the redirect, and show the message only when it is set.

> Note: the session store itself is untouched, as you asked. It does look wrong in one place
> (it never deletes expired rows), but that can wait for next week.

### Tests

| test | before | after |
|---|---|---|
| `test_expired_session_redirects_to_sign_in` | fails | passes |
| `test_redirect_keeps_address` | fails | passes |
| `test_sign_out_shows_no_timeout_message` | (new) | passes |

Run them with `pytest tests/api/test_sessions.py -k redirect -q`; the whole suite takes about
40 seconds. If you want, I can also open a PR against `release/2026.12` instead of `main`.

**Summary** — the redirect now works → users land where they meant to go; the timeout
message shows only when the session really expired (≤ 1 request in 10,000 in last week’s
logs). Cost: 3 files changed, +84 −19 lines… nothing else touched. The reviewer wrote “looks
good, ship it” — so I merged it at 14:02 UTC × 2 environments (staging ✓, production ✓).
"#;

/// A little prose in languages written with accents and in Cyrillic, so that the pairs of
/// two-byte characters get a price from text rather than the prior.
const EUROPEAN: &str = "\
Le déploiement a échoué vendredi soir : la migration de la base de données a dépassé le délai \
prévu, parce que la création de l'index a verrouillé toute la table. Pourriez-vous corriger \
cela avant lundi et décrire les étapes du retour en arrière ?
Die Anmeldung schlägt nach der letzten Änderung wieder fehl. Wenn die Sitzung abläuft, sollte \
der Server den Benutzer zur Anmeldeseite weiterleiten und die ursprüngliche Adresse behalten.
La prueba de inicio de sesión falla otra vez. Cuando la sesión caduca, el servidor debería \
redirigir al usuario a la página de acceso y conservar la dirección que pidió.
Тест входа снова падает после последнего изменения. Когда сессия истекает, сервер должен \
перенаправить пользователя на страницу входа и сохранить адрес, который он запросил.
";

const SOURCES: [&str; 29] = [
    include_str!("../../src/anthropic/mod.rs"),
    include_str!("../../src/anthropic/reply.rs"),
    include_str!("../../src/anthropic/request.rs"),
    include_str!("../../src/bedrock/mod.rs"),
    include_str!("../../src/bedrock/reply.rs"),
    include_str!("../../src/bedrock/request.rs"),
    include_str!("../../src/gemini/mod.rs"),
    include_str!("../../src/gemini/reply.rs"),
    include_str!("../../src/gemini/request.rs"),
    include_str!("../../src/openai/mod.rs"),
    include_str!("../../src/openai/reply.rs"),
    include_str!("../../src/openai/request.rs"),
    include_str!("../../src/openai_responses/mod.rs"),
    include_str!("../../src/openai_responses/reply.rs"),
    include_str!("../../src/openai_responses/request.rs"),
    include_str!("../../src/body/mod.rs"),
    include_str!("../../src/body/assemble.rs"),
    include_str!("../../src/errors/body.rs"),
    include_str!("../../src/body/fields.rs"),
    include_str!("../../src/cost/mod.rs"),
    include_str!("../../src/cost/measure.rs"),
    include_str!("../../src/cost/image_tokens.rs"),
    include_str!("../../src/parse/mod.rs"),
    include_str!("../../src/record/mod.rs"),
    include_str!("../../src/replay.rs"),
    include_str!("../../src/media/signature.rs"),
    include_str!("../../src/wire.rs"),
    include_str!("../../src/media/marker.rs"),
    include_str!("../specs/trim.py"),
];

/// The sources, whole.
pub fn code() -> String {
    SOURCES.concat()
}

/// The other providers' specs: Anthropic's and OpenAI's OpenAPI documents and Bedrock's
/// service model, in parts.
fn json() -> String {
    let parts = [
        &include_str!("../specs/anthropic-openapi.json")[..80_000],
        &include_str!("../specs/openai-openapi.json")[..80_000],
        &include_str!("../specs/bedrock-runtime-service-2.json")[..60_000],
    ];
    parts.concat()
}

/// A little generator of numbers, the same every run.
struct Numbers(u64);

impl Numbers {
    fn next(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) % below
    }
}

/// Logs of other shapes than the check's: a web server's access log, a compiler's output, a
/// test runner's, system log lines and a Python traceback.
fn logs() -> String {
    let mut n = Numbers(0x9e37_79b9_7f4a_7c15);
    let mut out = String::new();
    let methods = ["GET", "POST", "PUT", "DELETE"];
    let paths = [
        "/api/v2/orders",
        "/static/app.3f9c2e1b.js",
        "/login?next=%2Fhome",
        "/api/v2/orders/8812/items",
        "/favicon.ico",
    ];
    for _ in 0..120 {
        out.push_str(&format!(
            "198.51.100.{} - - [30/Nov/2026:{:02}:{:02}:{:02} +0000] \"{} {} HTTP/1.1\" {} {} \"-\" \"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/605.1.15\"\n",
            n.next(255),
            n.next(24),
            n.next(60),
            n.next(60),
            methods[n.next(4) as usize],
            paths[n.next(5) as usize],
            [200, 201, 304, 404, 502][n.next(5) as usize],
            n.next(90_000),
        ));
    }
    let crates = [
        "serde",
        "serde_json",
        "thiserror",
        "proc-macro2",
        "syn",
        "quote",
        "itoa",
    ];
    for name in crates {
        out.push_str(&format!("   Compiling {name} v1.0.{}\n", n.next(230)));
    }
    for _ in 0..12 {
        let line = n.next(400) + 1;
        out.push_str(&format!(
            "error[E0308]: mismatched types\n  --> src/session/store.rs:{line}:{col}\n   |\n{line} |     let expires: u64 = session.expires_at;\n   |                  ---   ^^^^^^^^^^^^^^^^^^ expected `u64`, found `SystemTime`\n   |                  |\n   |                  expected due to this\n\n",
            col = n.next(80) + 1
        ));
    }
    out.push_str("warning: unused variable: `now`\n --> src/main.rs:12:9\n  |\n12 |     let now = Instant::now();\n  |         ^^^ help: if this is intentional, prefix it with an underscore: `_now`\n\n");
    let tests = [
        "test_login",
        "test_logout",
        "test_refresh_token",
        "test_expired_session",
        "test_redirect_keeps_address",
    ];
    for (i, test) in tests.iter().cycle().take(40).enumerate() {
        let outcome = ["PASSED", "PASSED", "PASSED", "FAILED", "SKIPPED"][n.next(5) as usize];
        out.push_str(&format!(
            "tests/api/test_sessions.py::{test}[case{i}] {outcome} [{:3}%]\n",
            (i + 1) * 100 / 40
        ));
    }
    out.push_str("Traceback (most recent call last):\n  File \"/srv/app/handlers.py\", line 88, in handle\n    user = await store.load(session_id)\n  File \"/srv/app/store.py\", line 41, in load\n    raise KeyError(f\"no session {session_id!r}\")\nKeyError: \"no session 'a81f03'\"\n");
    for _ in 0..80 {
        out.push_str(&format!(
            "Nov 30 {:02}:{:02}:{:02} build-07 sshd[{}]: Accepted publickey for deploy from 203.0.113.{} port {} ssh2: ED25519 SHA256:{}\n",
            n.next(24),
            n.next(60),
            n.next(60),
            n.next(60_000),
            n.next(255),
            n.next(65_535),
            &base64(&n.next(u64::MAX).to_le_bytes())[..10],
        ));
        out.push_str(&format!(
            "{{\"ts\":\"2026-11-30T{:02}:{:02}:{:02}.{:03}Z\",\"level\":\"info\",\"msg\":\"job finished\",\"job\":\"sync-{}\",\"duration_ms\":{}}}\n",
            n.next(24),
            n.next(60),
            n.next(60),
            n.next(1000),
            n.next(1000),
            n.next(100_000),
        ));
    }
    out
}

/// Chinese, Japanese and Korean, written for this purpose (not the check's text).
const CJK: &str = "\
部署脚本在周五晚上失败了。日志显示数据库迁移超时，但是迁移本身只添加了一个索引。我们发现表里有将近两千万行数据，\
创建索引的时候锁住了整张表，所以其他请求都在等待。解决办法是改用并发创建索引，并且把迁移的超时时间调长一点。\
另外，我们应该在测试环境里准备一份接近生产规模的数据，这样类似的问题可以提前发现。请在下周一之前完成修改，\
并在合并请求里写清楚回滚的步骤。如果有任何疑问，可以直接在频道里问我。\
昨天的会议上，大家同意把缓存的过期时间从十分钟改成五分钟。原因是用户修改资料以后，页面上还会显示旧的名字，\
这让很多人以为保存失败了。改动很小，但需要同时更新文档和监控的告警阈值。\
ビルドが失敗した原因は、依存ライブラリのバージョンが更新されたことでした。新しいバージョンでは関数の名前が変わっており、\
古い名前を使っているコードがコンパイルできなくなっています。修正は簡単ですが、ほかのモジュールでも同じ関数を使っていないか確認してください。\
来週のリリースまでに、テストをもう一度すべて実行して、結果をこのチケットに書いてください。よろしくお願いします。\
배포 스크립트가 금요일 밤에 실패했습니다. 로그를 보면 데이터베이스 마이그레이션이 시간 초과로 중단되었습니다. \
인덱스를 만드는 동안 테이블 전체가 잠겨서 다른 요청들이 모두 기다려야 했습니다. 다음 주 월요일까지 수정해 주시고, \
되돌리는 방법도 함께 적어 주세요. 궁금한 점이 있으면 언제든지 물어보세요.";

/// Emoji alone, and emoji among words as chat text and commit messages carry them.
fn emoji() -> String {
    const EMOJI: [&str; 40] = [
        "😀",
        "😃",
        "😅",
        "🙂",
        "😉",
        "😍",
        "😎",
        "🥳",
        "😭",
        "😡",
        "🤯",
        "🥲",
        "👀",
        "👏",
        "🙌",
        "💪",
        "🤝",
        "❤️",
        "💔",
        "⭐",
        "🌟",
        "⚡",
        "🔧",
        "🛠️",
        "📌",
        "📎",
        "📊",
        "🗂️",
        "🚧",
        "🚨",
        "🏁",
        "🧹",
        "🪲",
        "♻️",
        "➕",
        "➖",
        "👩‍💻",
        "🧑‍🔬",
        "🇫🇷",
        "👍🏽",
    ];
    let words = [
        "fix",
        "tests pass",
        "ship it",
        "done",
        "deploying now",
        "looks good",
        "oops",
    ];
    let mut n = Numbers(0x2545_f491_4f6c_dd1d);
    let mut out = String::new();
    for _ in 0..300 {
        out.push_str(EMOJI[n.next(40) as usize]);
    }
    out.push('\n');
    for _ in 0..120 {
        out.push_str(EMOJI[n.next(40) as usize]);
        out.push(' ');
        out.push_str(words[n.next(7) as usize]);
        out.push(' ');
        out.push_str(EMOJI[n.next(40) as usize]);
        out.push('\n');
    }
    out
}

/// Base64 of random bytes, hexadecimal digests and UUIDs.
fn noise() -> String {
    let mut n = Numbers(0xdead_beef_cafe_f00d);
    let bytes: Vec<u8> = (0..4000).map(|_| n.next(256) as u8).collect();
    let mut out = base64(&bytes);
    out.push('\n');
    for _ in 0..60 {
        let digest: String = (0..4)
            .map(|_| format!("{:016x}", n.next(u64::MAX)))
            .collect();
        out.push_str(&digest);
        out.push('\n');
        let a = n.next(u64::MAX);
        let b = n.next(u64::MAX);
        out.push_str(&format!(
            "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}\n",
            a >> 32,
            a & 0xffff,
            (b >> 52) & 0xfff,
            (b >> 32) & 0xffff,
            b & 0xffff_ffff_ffff
        ));
    }
    out
}
