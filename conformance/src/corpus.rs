//! Texts of every kind an agent stores, for calibrating and checking the token estimate:
//! English prose, code, JSON, logs, CJK, emoji, and base64-like noise, and a mixed agent
//! transcript. Deterministic: the same texts every run.

/// English prose, as a user or a model writes it.
pub const PROSE: &str = "\
The login test fails again after the last change. When the session expires, the server \
should redirect the user to the sign-in page and keep the address they asked for, so that \
they land where they meant to go once they have signed in. Instead, the page reloads, the \
address is lost, and the user sees the dashboard. I looked at the middleware first: it \
compares the expiry time with the current time, but one of them is in local time and the \
other in UTC, so for anyone east of Greenwich the session looks valid for a few more hours. \
That explains why the bug only shows up on the build machine in Frankfurt and never on my \
laptop. Could you fix the comparison, add a test that would have caught it, and tell me \
whether any other place in the code compares times the same way? Please keep the change \
small; we are close to a release, and I would rather not touch the session store itself. \
If something there looks wrong too, write it down and we will look at it next week.

Thanks for the quick fix. The tests pass now, and the redirect keeps the address. One more \
thing: the error message on the sign-in page still says \"Your session has timed out\" even \
when the user signed out on purpose. Can we show that message only when the session really \
expired? It confuses people who click the sign-out button and then read that they were \
thrown out. A small flag in the redirect would do, I think, but you know the code better.
";

/// The code the check reads, which the fit never sees: [`CODE`], and two of the crate's own
/// sources that the training texts leave out (`src/render/mod.rs`, `src/render/native_images.rs`).
pub fn checked_code() -> String {
    format!(
        "{CODE}{}{}",
        include_str!("../../src/render/mod.rs"),
        include_str!("../../src/render/native_images.rs")
    )
}

/// Code, as tools return it: Rust and Python.
pub const CODE: &str = r#"
use std::collections::HashMap;
use std::time::{Duration, SystemTime};

/// A session, as the store keeps it.
#[derive(Debug, Clone)]
pub struct Session {
    pub id: String,
    pub user_id: u64,
    pub expires_at: SystemTime,
    pub return_to: Option<String>,
}

impl Session {
    pub fn is_expired(&self, now: SystemTime) -> bool {
        match self.expires_at.duration_since(now) {
            Ok(left) => left < Duration::from_secs(1),
            Err(_) => true,
        }
    }
}

pub fn redirect_for(sessions: &HashMap<String, Session>, id: &str, now: SystemTime) -> String {
    match sessions.get(id) {
        Some(session) if !session.is_expired(now) => "/dashboard".to_owned(),
        Some(session) => format!("/sign-in?return_to={}", session.return_to.as_deref().unwrap_or("/")),
        None => "/sign-in".to_owned(),
    }
}

def test_expired_session_redirects_to_sign_in(client, frozen_time):
    session = client.sign_in(user_id=42, return_to="/reports/2026/q3")
    frozen_time.tick(delta=timedelta(hours=2))
    response = client.get("/reports/2026/q3", cookies={"session": session.id})
    assert response.status_code == 302
    assert response.headers["Location"] == "/sign-in?return_to=/reports/2026/q3"
"#;

/// JSON, as an API or a tool returns it.
pub const JSON: &str = r#"{"data":[{"id":"usr_01HZX3K9QW","email":"ana.lopez@example.com","created_at":"2026-03-14T09:26:53Z","roles":["admin","billing"],"settings":{"theme":"dark","locale":"es-ES","notifications":{"email":true,"sms":false}},"last_login":{"at":"2026-11-29T18:02:11Z","ip":"203.0.113.42","user_agent":"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36"}},{"id":"usr_01HZX3KA7M","email":"li.wei@example.com","created_at":"2026-05-02T14:11:07Z","roles":["viewer"],"settings":{"theme":"light","locale":"zh-CN","notifications":{"email":false,"sms":false}},"last_login":null}],"pagination":{"page":1,"per_page":2,"total":2,"next":null},"request_id":"req_7f3a9c2e1b"}"#;

/// CJK text: Chinese and Japanese.
pub const CJK: &str = "\
登录测试在上次修改之后又失败了。会话过期时，服务器应该把用户重定向到登录页面，并保留他们请求的地址，\
这样登录之后就能回到原来想去的地方。可是现在页面只是重新加载，地址丢失了，用户看到的是仪表盘。\
我先检查了中间件：它把过期时间和当前时间进行比较，但其中一个是本地时间，另一个是协调世界时。\
セッションの有効期限が切れたとき、サーバーはユーザーをサインインページにリダイレクトし、\
要求されたアドレスを保持する必要があります。テストはすべて成功しましたが、エラーメッセージはまだ残っています。";

/// Emoji, as chat text carries them.
pub const EMOJI: &str = "🎉🚀✅❌🔥👍😀😂🤔🙏💡📦🐛🧪⚠️🔒🌍📈🕒✨🎯🧠💬📝";

/// Log lines, as a server writes them.
pub fn logs() -> String {
    let mut out = String::new();
    let levels = ["INFO", "WARN", "DEBUG", "ERROR"];
    let paths = ["/api/v1/items", "/api/v1/users/42", "/health", "/sign-in"];
    for line in 0..200u32 {
        let (minute, second, millis) = (line / 60 % 60, line % 60, (line * 37) % 1000);
        let level = levels[(line % 4) as usize];
        let path = paths[(line % 3) as usize];
        let status = [200, 200, 302, 404, 500][(line % 5) as usize];
        out.push_str(&format!(
            "2026-11-30T14:{minute:02}:{second:02}.{millis:03}Z {level:5} server::http: request id=req_{:08x} method=GET path={path} status={status} latency_ms={}.{}\n",
            line.wrapping_mul(2654435761),
            line % 97,
            line % 10
        ));
    }
    out
}

/// Base64 of pseudo-random bytes, like the data of a file a tool read, or a hash.
pub fn noise(len: usize) -> String {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let bytes: Vec<u8> = (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    crate::records::base64(&bytes)
}

/// A mixed agent transcript: prose, code, JSON, logs and a little of everything else, in the
/// proportions of a coding agent's tool rounds.
pub fn transcript() -> String {
    let mut out = String::new();
    for round in 0..6 {
        out.push_str(PROSE);
        out.push_str("\n\nTool use: read({\"path\":\"src/session.rs\"})\n\nResult (read): ");
        out.push_str(CODE);
        out.push_str("\n\nTool use: bash({\"cmd\":\"curl -s localhost:8080/api/v1/users\"})\n\nResult (bash): ");
        out.push_str(JSON);
        if round % 2 == 0 {
            out.push_str("\n\nResult (logs): ");
            out.push_str(&logs()[..4000]);
        }
        if round == 3 {
            out.push_str(CJK);
            out.push_str(EMOJI);
            out.push_str(&noise(300));
        }
    }
    out
}
