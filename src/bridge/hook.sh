#!/bin/sh
# Agent Warden's command bridge in POSIX sh: one hook call from stdin to the
# endpoint serving its project, and the endpoint's verdict back to the agent.
# It exists because a shell, curl and openssl start in a fraction of the time
# Node needs, and an agent runs its hook before every tool call.
#
# It trusts only what verifies under the public key the endpoints write
# (bridge-key.pem in the state folder): the endpoint record it sends the call
# to, and the reply, signed for this call's random nonce. Nothing secret goes
# on a command line (the hook token reaches curl through a here-document).
# Whatever it cannot do exactly as the Node bridge would (no curl or openssl,
# a cwd it would have to unescape or normalise, no record for the project, a
# record or a reply that does not verify, an endpoint that does not answer),
# it hands the call, unchanged, to the Node bridge beside it (hook.js), which
# decides as it always does. Set AGENT_WARDEN_BRIDGE_TRACE=1 to see why.
#
# Usage: sh hook.sh NODE --agent AGENT [--timeout SECONDS] [--config FILE]
#        sh hook.sh --probe PUBLIC_KEY_FILE SIGNATURE_HEX MESSAGE   (install's check that
#        this machine's sh, curl and openssl do what the bridge needs; exit 0 when they do)

nl='
'
# curl, openssl, od and cat come from the system's own folders, not from the agent's PATH,
# where a program the agent wrote could stand in for them (the handoff restores it for Node).
agent_path=${PATH:-}
PATH=${AGENT_WARDEN_BRIDGE_PATH:-/usr/bin:/bin}

# Hands the call to the Node bridge with the same arguments and the same input.
handoff() {
  [ -n "${AGENT_WARDEN_BRIDGE_TRACE:-}" ] && printf 'agent-warden (sh bridge): %s; handing the call to the Node bridge\n' "$1" >&2
  shift
  PATH=$agent_path
  printf '%s' "$body" | "$node" "$here/hook.js" "$@"
  exit $?
}

# A signature in hex as printf octal escapes (printf then writes its bytes).
hex_to_octal() {
  hex=$1
  octal=
  while [ -n "$hex" ]; do
    rest=${hex#??}
    byte=${hex%"$rest"}
    hex=$rest
    value=$((0x$byte))
    octal="$octal\\$((value / 64))$((value / 8 % 8))$((value % 8))"
  done
}

# Whether the signature (hex) of what arrives on descriptor 3 verifies under the public key.
verified() {
  hex_to_octal "$2"
  printf "$octal" | openssl dgst -sha256 -verify "$1" -signature /dev/stdin /dev/fd/3 >/dev/null 2>&1
}

if [ "${1:-}" = --probe ]; then
  command -v curl >/dev/null 2>&1 && command -v openssl >/dev/null 2>&1 || exit 1
  verified "$2" "$3" 3<<EOF
$4
EOF
  exit $?
fi

node=$1
shift
here=${0%/*}
[ "$here" = "$0" ] && here=.
body=

body=$(cat) || handoff "cannot read the hook input" "$@"

agent=
timeout=600
previous=
for argument in "$@"; do
  case $previous in
  --agent) agent=$argument ;;
  --timeout) timeout=$argument ;;
  esac
  previous=$argument
done
case $agent in
claude | codex | gemini | copilot) ;;
*) handoff "agent \"$agent\" is left to the Node bridge" "$@" ;;
esac
case $timeout in
'' | *[!0-9]*) handoff "timeout \"$timeout\" is not whole seconds" "$@" ;;
esac
command -v curl >/dev/null 2>&1 || handoff "no curl" "$@"
command -v openssl >/dev/null 2>&1 || handoff "no openssl" "$@"

# The call's folder: the one top-level "cwd", written plainly. The input must name
# cwd exactly once, so a tool argument called cwd can never be the one read here.
case $body in
*'"cwd"'*'"cwd"'*) handoff "the input names cwd more than once" "$@" ;;
*'"cwd":"/'*) ;;
*) handoff "the input has no plain absolute cwd" "$@" ;;
esac
cwd=${body#*'"cwd":"'}
cwd=${cwd%%'"'*}
case $cwd in
*\\* | *//* | */./* | */../* | */. | */.. | ?*/) handoff "the cwd needs unescaping or normalising" "$@" ;;
esac

# The project root, as the Node bridge finds it: the nearest folder holding .agent-warden or .git.
project=$cwd
folder=$cwd
while :; do
  if [ -e "$folder/.agent-warden" ] || [ -e "$folder/.git" ]; then
    project=${folder:-/}
    break
  fi
  [ -z "$folder" ] || [ "$folder" = / ] && break
  folder=${folder%/*}
done

case ${AGENT_WARDEN_HOME:-} in
'') [ -n "${HOME:-}" ] || handoff "no HOME" "$@"
  state=$HOME/.agent-warden ;;
*[!A-Za-z0-9/._-]*) handoff "the state folder's name needs the Node bridge" "$@" ;;
*) state=$AGENT_WARDEN_HOME ;;
esac
public_key=$state/bridge-key.pem
[ -f "$public_key" ] || handoff "no bridge key" "$@"

# A live endpoint without a shell record (an older version, or a workspace name on two
# lines) may be the one serving the project: only the Node bridge can tell.
for json in "$state"/endpoints/*.json; do
  [ -f "$json" ] || continue
  [ -f "${json%.json}.shrec" ] && continue
  name=${json##*/}
  pid=${name%%-*}
  case $pid in '' | *[!0-9]*) continue ;; esac
  kill -0 "$pid" 2>/dev/null && handoff "a live endpoint has no shell record" "$@"
done

# The endpoint serving the project: a live record whose workspace holds it (the
# innermost, then the newest), else the newest record with no workspace.
best=
best_length=-1
best_started=-1
for record in "$state"/endpoints/*.shrec; do
  [ -f "$record" ] || continue
  magic= url= pid= started= root= signature=
  {
    IFS= read -r magic
    IFS= read -r url
    IFS= read -r pid
    IFS= read -r started
    IFS= read -r root
    IFS= read -r signature
  } <"$record" || continue
  [ "$magic" = 'agent-warden shell bridge record 1' ] || continue
  url=${url#url=} pid=${pid#pid=} started=${started#started=} root=${root#root=} signature=${signature#signature=}
  case $pid in '' | *[!0-9]*) continue ;; esac
  case $started in '' | *[!0-9]*) continue ;; esac
  kill -0 "$pid" 2>/dev/null || continue
  if [ -n "$root" ]; then
    if [ "$root" != / ] && [ "$project" != "$root" ]; then
      case $project in "$root"/*) ;; *) continue ;; esac
    fi
    length=${#root}
  else
    length=0
  fi
  if [ "$length" -gt "$best_length" ] || { [ "$length" -eq "$best_length" ] && [ "$started" -gt "$best_started" ]; }; then
    best=$record best_length=$length best_started=$started
    best_magic=$magic best_url=$url best_pid=$pid best_root=$root best_signature=$signature
  fi
done
[ -n "$best" ] || handoff "no endpoint record for $project" "$@"

case $best_url in
http://127.0.0.1:*) port=${best_url#http://127.0.0.1:} ;;
http://localhost:*) port=${best_url#http://localhost:} ;;
'http://[::1]:'*) port=${best_url#'http://[::1]:'} ;;
*) handoff "the record's url is not on loopback" "$@" ;;
esac
case $port in '' | *[!0-9]*) handoff "the record's url is not a loopback address and port" "$@" ;; esac
case $best_signature in '' | *[!0-9a-f]*) handoff "the record has no signature" "$@" ;; esac
verified "$public_key" "$best_signature" 3<<EOF || handoff "the record $best does not verify" "$@"
$best_magic
url=$best_url
pid=$best_pid
started=$best_started
root=$best_root
EOF

IFS= read -r token <"$state/hook-token" || handoff "cannot read the hook token" "$@"
case $token in '' | *[!A-Za-z0-9_-]*) handoff "the hook token is not a plain token" "$@" ;; esac

random=$(od -An -N16 -tx1 /dev/urandom) || handoff "no /dev/urandom" "$@"
nonce=
for word in $random; do nonce=$nonce$word; done
[ ${#nonce} -eq 32 ] || handoff "no nonce" "$@"

# -q first: no .curlrc; no proxy; the URL and the token come through one here-document, the
# body through another (each process the bridge starts costs it more than a here-document).
answer=$(curl -q -sS -i --noproxy '*' --connect-timeout 2 --max-time "$timeout" \
  -H 'Content-Type: application/json' -H 'Expect:' -H "x-warden-shell-bridge-nonce: $nonce" \
  --data-binary @- -K /dev/fd/3 2>/dev/null 3<<EOF <<BODY
url = "$best_url/hooks/$agent"
header = "Authorization: Bearer $token"
EOF
$body
BODY
) || handoff "the endpoint at $best_url did not answer" "$@"

case $answer in
"HTTP/1.1 200 "*) ;;
*) handoff "the endpoint did not answer 200" "$@" ;;
esac
# The headers end at the first line holding one character (the CR of an empty line: a header
# line is never that short); whatever else it might be, the signature would not verify.
head=${answer%%"$nl"?"$nl"*}
[ "$head" != "$answer" ] || handoff "the reply has no end of headers" "$@"
reply=${answer#*"$nl"?"$nl"}
case $head in
*"${nl}x-warden-reply-signature: "*) ;;
*) handoff "the reply is not signed" "$@" ;;
esac
signature=${head#*"${nl}x-warden-reply-signature: "}
signature=${signature%%[!0-9a-f]*}
[ -n "$signature" ] || handoff "the reply's signature is not hex" "$@"
case $reply in '{'*'}') ;; *) handoff "the reply is not a JSON object" "$@" ;; esac
verified "$public_key" "$signature" 3<<EOF || handoff "the reply does not verify" "$@"
reply
$nonce
$reply
EOF

[ -n "${AGENT_WARDEN_BRIDGE_TRACE:-}" ] && printf 'agent-warden (sh bridge): forwarded to %s\n' "$best_url" >&2
printf '%s\n' "$reply"
exit 0
