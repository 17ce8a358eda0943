#!/usr/bin/env python3
"""Builds the agent corpus: text from public agent sessions and tool outputs, one file a session.

    python3 conformance/agent-corpus/extract.py MIRROR_DIR

MIRROR_DIR holds bare git snapshots of the repositories named below, as `owner+name/repo`
(the `fetch` tool's layout). Each session's text is every string an agent stored (messages,
tool inputs and outputs, observations), in order, without repeats, base64 and signatures
left out, cut to CAP bytes at a line's end. Deterministic: the same snapshots give the same
files. SOURCES.md records the repository, commit and path of every file.
"""
import json, os, re, subprocess, sys

CAP = 24_000
SKIP_KEYS = {"signature", "encrypted_content", "data", "image_url", "uuid", "parentUuid",
             "sessionId", "requestId", "id", "tool_use_id", "timestamp", "cwd", "version",
             "gitBranch", "model", "type", "role", "userType", "leafUuid", "media_type"}
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>]")

def git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo, *args], check=True, capture_output=True).stdout

def strings(value, key=None):
    if isinstance(value, str):
        if key in SKIP_KEYS or len(value) < 12:
            return
        if len(value) > 200 and " " not in value[:2000] and "\n" not in value[:2000]:
            return  # base64 or another blob
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from strings(item, key)
    elif isinstance(value, dict):
        for k, item in value.items():
            yield from strings(item, k)

def session_text(path, raw):
    text = raw.decode("utf-8", "replace")
    if path.endswith(".cast"):
        out = []
        for line in text.splitlines()[1:]:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, list) and len(event) == 3 and event[1] == "o":
                out.append(event[2])
        return [ANSI.sub("", "".join(out))]
    if path.endswith(".txt"):
        return [text]
    values = []
    if path.endswith(".jsonl"):
        for line in text.splitlines():
            try:
                values.append(json.loads(line))
            except ValueError:
                pass
    else:
        values.append(json.loads(text))
    seen, out = set(), []
    for value in values:
        for s in strings(value):
            if s not in seen:
                seen.add(s)
                out.append(s)
    return out

def cut(parts, skip=0):
    text = "\n".join(parts)
    text = text[skip:]
    if len(text) > CAP:
        end = text.rfind("\n", 0, CAP)
        text = text[: end + 1 if end > CAP // 2 else CAP]
    return text

def main():
    mirror = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    sources = []
    def take(owner_name, pattern, count, name, skip=0, stride=1):
        repo = os.path.join(mirror, owner_name, "repo")
        commit = git(repo, "rev-parse", "HEAD").decode().strip()
        paths = [p for p in git(repo, "ls-tree", "-r", "--name-only", "HEAD").decode().splitlines()
                 if re.search(pattern, p)]
        paths.sort()
        taken = 0
        for path in paths[::stride]:
            if taken == count:
                break
            try:
                raw = git(repo, "show", f"HEAD:{path}")
            except subprocess.CalledProcessError:
                continue  # a file the snapshot lists but does not hold
            text = cut(session_text(path, raw), skip)
            if len(text) < 2000:
                continue
            taken += 1
            file = f"{name}-{taken:02}.txt"
            with open(os.path.join(here, file), "w", encoding="utf-8", newline="") as f:
                f.write(text)
            sources.append((file, owner_name.replace("+", "/"), commit, path, len(text.encode())))
    take("M-Thisness+M-Claude", r"^Archives/.*\.jsonl$", 12, "claude-code", stride=3)
    take("SWE-agent+SWE-agent", r"^trajectories/demonstrations/.*\.traj$", 6, "swe-agent")
    take("All-Hands-AI+OpenHands", r"^tests/runtime/trajs/.*\.json$", 4, "openhands")
    take("laude-institute+terminal-bench-leaderboard", r"/sessions/agent\.cast$", 10, "terminal", stride=97)
    take("nijaru+aircher", r"/panes/post-test\.txt$", 4, "terminal-panes", stride=3)
    take("Aider-AI+aider", r"^tests/fixtures/chat-history.*\.txt$", 2, "aider")
    take("Etelis+skillsbench-replay", r"/prompt\.json$", 4, "skillsbench", stride=40)
    with open(os.path.join(here, "SOURCES.md"), "w") as f:
        f.write("# Where the agent corpus comes from\n\n"
                "Written by `python3 conformance/agent-corpus/extract.py MIRROR_DIR`; do not edit by hand.\n"
                "Each file is the text of one public session or tool output, cut to "
                f"{CAP:,} characters at a line's end. Files with an odd number train the text estimate's weights; files with\n"
                "an even number are held out and check it (`conformance/tests/agent_estimate.rs`).\n\n"
                "| file | repository | commit | path | bytes |\n|---|---|---|---|---|\n")
        for file, repo, commit, path, size in sources:
            f.write(f"| {file} | https://github.com/{repo} | {commit[:12]} | {path} | {size} |\n")

main()
