#!/usr/bin/env bash
# A Selenium Grid 4 standalone on loopback, for AGENTREADY_GRID_URL:
#
#   bash ci/grid.sh start      # prints the URL; AGENTREADY_GRID_URL=http://127.0.0.1:4444
#   bash ci/grid.sh sessions   # how many sessions are open
#   bash ci/grid.sh stop       # ends the grid, its drivers and browsers; checks none is left
#
# Made of Debian's chromium and chromium-driver (same version), a JRE, and
# the server jar from the npm registry package @nightwatch/selenium-server
# (npm pack and extract: its install script, which downloads, never runs).
# Selenium Manager is off: the grid never downloads a driver or a browser.
# Settings: GRID_PORT (4444), GRID_SESSION_TIMEOUT (300 s, Selenium's
# default), GRID_MAX_SESSIONS (2), GRID_DIR (bin/grid: the jar, config, log).
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=4.20.0
PORT=${GRID_PORT:-4444}
DIR=${GRID_DIR:-bin/grid}
URL="http://127.0.0.1:$PORT"
JAR="$DIR/selenium-server-$VERSION.jar"
PIDFILE="$DIR/grid-$PORT.pid"
LOG="$DIR/grid-$PORT.log"

say() { echo "grid: $*"; }
die() { echo "grid: $*" >&2; exit 1; }

install_deps() {
  local missing=()
  command -v java >/dev/null || missing+=(default-jre-headless)
  command -v chromedriver >/dev/null || missing+=(chromium-driver)
  command -v chromium >/dev/null || missing+=(chromium)
  command -v npm >/dev/null || [ -f "$JAR" ] || missing+=(npm)
  [ ${#missing[@]} -eq 0 ] && return
  say "installing ${missing[*]} (Debian's packages)"
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

fetch_jar() {
  [ -f "$JAR" ] && return
  mkdir -p "$DIR"
  local tmp
  tmp=$(mktemp -d)
  say "the server jar from the npm registry: npm pack @nightwatch/selenium-server@$VERSION"
  (cd "$tmp" && npm pack --silent "@nightwatch/selenium-server@$VERSION" >/dev/null)
  tar -xzf "$tmp"/nightwatch-selenium-server-"$VERSION".tgz -C "$tmp" "package/lib/selenium-server-$VERSION.jar"
  mv "$tmp/package/lib/selenium-server-$VERSION.jar" "$JAR"
  rm -rf "$tmp"
}

major() { "$1" --version 2>/dev/null | grep -Eo '[0-9]+\.[0-9.]+' | head -1 | cut -d. -f1; }

running_pid() {
  [ -f "$PIDFILE" ] || return 1
  local pid
  pid=$(cat "$PIDFILE")
  kill -0 "$pid" 2>/dev/null && echo "$pid"
}

status_json() { curl -sf --max-time 2 "$URL/status"; }

start() {
  if pid=$(running_pid); then
    say "already running (pid $pid) at $URL"
    return
  fi
  install_deps
  fetch_jar
  local cm dm
  cm=$(major chromium) dm=$(major chromedriver)
  [ "$cm" = "$dm" ] || die "chromium $cm and chromedriver $dm differ: apt-get install -y chromium chromium-driver"
  if status_json >/dev/null; then
    die "something else answers at $URL: stop it, or set GRID_PORT"
  fi
  mkdir -p "$DIR"
  cat > "$DIR/grid-$PORT.toml" <<EOF
[server]
host = "127.0.0.1"
port = $PORT

[node]
detect-drivers = false
selenium-manager = false
max-sessions = ${GRID_MAX_SESSIONS:-2}
session-timeout = ${GRID_SESSION_TIMEOUT:-300}

[[node.driver-configuration]]
display-name = "chromium"
webdriver-executable = "$(command -v chromedriver)"
max-sessions = ${GRID_MAX_SESSIONS:-2}
stereotype = '{"browserName": "chrome", "platformName": "linux", "goog:chromeOptions": {"binary": "$(command -v chromium)"}}'
EOF
  # setsid: the grid, its drivers and their browsers are one session of
  # processes, which stop ends and checks by its id.
  SE_AVOID_STATS=true SE_OFFLINE=true setsid java -Xmx512m -jar "$JAR" standalone --config "$DIR/grid-$PORT.toml" >"$LOG" 2>&1 < /dev/null &
  local pid=$!
  echo "$pid" > "$PIDFILE"
  # Ready when /status says so; bounded, and at once if the JVM died.
  local deadline=$((SECONDS + 90))
  until status_json | grep -q '"ready": *true'; do
    kill -0 "$pid" 2>/dev/null || { tail -20 "$LOG" >&2; rm -f "$PIDFILE"; die "the grid did not start (log above, $LOG)"; }
    [ $SECONDS -lt $deadline ] || { stop; die "the grid was not ready within 90 s ($LOG)"; }
    sleep 0.2
  done
  grep -q SeleniumManager "$LOG" && die "Selenium Manager ran: the config must keep it off ($LOG)"
  say "Selenium Grid $VERSION ready at $URL (pid $pid; chromium $cm; session timeout ${GRID_SESSION_TIMEOUT:-300} s)"
  say "AGENTREADY_GRID_URL=$URL"
}

sessions() {
  local s
  s=$(status_json) || die "no grid answers at $URL"
  grep -o '"sessionId"' <<<"$s" | wc -l
}

stop() {
  local pid
  if ! pid=$(running_pid); then
    rm -f "$PIDFILE"
    say "not running at $URL"
    return
  fi
  # The grid ends its sessions (drivers, browsers) on TERM; whatever is
  # left of its process session after 20 s is killed.
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + 20))
  while pgrep -s "$pid" >/dev/null && [ $SECONDS -lt $deadline ]; do
    sleep 0.2
  done
  if pgrep -s "$pid" >/dev/null; then
    say "killing what the grid left: $(pgrep -s "$pid" -d ' ')"
    kill -KILL $(pgrep -s "$pid") 2>/dev/null || true
    deadline=$((SECONDS + 10))
    while pgrep -s "$pid" >/dev/null && [ $SECONDS -lt $deadline ]; do
      sleep 0.2
    done
  fi
  rm -f "$PIDFILE"
  pgrep -s "$pid" >/dev/null && die "processes of the grid are still there: $(pgrep -s "$pid" -d ' ')"
  say "stopped (pid $pid); no process of it is left"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  sessions) sessions ;;
  *) echo "usage: bash ci/grid.sh start|stop|sessions" >&2; exit 2 ;;
esac
