#!/usr/bin/env bash
# The real services the team-mode tests need, started from nothing and stopped again:
#
#   .ci/services.sh start DIR   PostgreSQL (Debian's packages: installed if missing) in DIR,
#                               run by an unprivileged user on a free port, with a role that may
#                               create databases; and an OpenID Connect provider for tests
#                               (oidc-provider-mock, from requirements-test.txt) on a free port.
#                               Writes DIR/env: the variables the tests read
#                               (ROUGE_LENS_TEST_POSTGRES, ROUGE_LENS_TEST_OIDC).
#   .ci/services.sh stop DIR    Stops both (safe to call twice, or after a failed start).
#
# `python` must be the environment the tests run in (the provider is a Python package).
# Locally: `.ci/services.sh start /tmp/rl-services && . /tmp/rl-services/env`, run the tests,
# then `.ci/services.sh stop /tmp/rl-services`.
set -euo pipefail

command=${1:?usage: services.sh start|stop DIR}
dir=${2:?usage: services.sh start|stop DIR}

free_port() {
  python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

as_db_user() {  # PostgreSQL refuses to run as root: as root, run its tools as `postgres`
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_bin() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    # Only our own server runs: no system-wide cluster is created (nor started) by the install.
    if [ ! -e /etc/postgresql-common/createcluster.conf ]; then
      $SUDO mkdir -p /etc/postgresql-common
      echo "create_main_cluster = false" | $SUDO tee /etc/postgresql-common/createcluster.conf >/dev/null
    fi
    $SUDO apt-get update -qq >/dev/null
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o Dpkg::Options::=--force-confold \
      postgresql >/dev/null
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  fi
  echo "$bin"
}

start() {
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  chmod 755 "$dir"  # the database user must reach $dir/pg
  local bin pg_port oidc_port password
  bin=$(pg_bin)
  pg_port=$(free_port)
  password=$(python -c 'import secrets; print(secrets.token_hex(16))')  # made per run, never stored elsewhere
  mkdir -p "$dir/pg"
  printf '%s\n' "$password" > "$dir/pg/pwfile"
  if [ "$(id -u)" = 0 ]; then chown -R postgres: "$dir/pg"; fi
  chmod 700 "$dir/pg"
  as_db_user "$bin/initdb" -D "$dir/pg/data" -U postgres --pwfile="$dir/pg/pwfile" --auth-local=trust \
    --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  as_db_user "$bin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/server.log" -w -t 60 \
    -o "-p $pg_port -k $dir/pg -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null \
    || { cat "$dir/pg/server.log" >&2; exit 1; }
  echo "$bin" > "$dir/pg_bin"
  # The tests' role drops each test database WITH (FORCE), which terminates what is still connected
  # to it; an autovacuum worker has no role, so only pg_signal_backend lets that role end it (without
  # it the drop failed now and then: "must be a member of the role whose process is being terminated")
  as_db_user "$bin/psql" -q -h "$dir/pg" -p "$pg_port" -U postgres -d postgres -v ON_ERROR_STOP=1 \
    -c "CREATE ROLE rouge_lens LOGIN CREATEDB PASSWORD '$password'" \
    -c "GRANT pg_signal_backend TO rouge_lens" >/dev/null

  oidc_port=$(free_port)
  # Plain HTTP on the loopback address: the provider and Authlib allow it for 127.0.0.1.
  nohup python -m oidc_provider_mock --host 127.0.0.1 --port "$oidc_port" --require-registration true \
    >"$dir/oidc.log" 2>&1 &
  echo $! > "$dir/oidc.pid"
  for _ in $(seq 1 120); do
    if python -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)" \
        "http://127.0.0.1:$oidc_port/.well-known/openid-configuration" 2>/dev/null; then
      break
    fi
    if ! kill -0 "$(cat "$dir/oidc.pid")" 2>/dev/null; then cat "$dir/oidc.log" >&2; exit 1; fi
    sleep 0.5
  done
  python -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)" \
    "http://127.0.0.1:$oidc_port/.well-known/openid-configuration" || { cat "$dir/oidc.log" >&2; exit 1; }

  cat > "$dir/env" <<EOF
export ROUGE_LENS_TEST_POSTGRES='postgresql://rouge_lens:$password@127.0.0.1:$pg_port/postgres'
export ROUGE_LENS_TEST_OIDC='http://127.0.0.1:$oidc_port'
EOF
  chmod 600 "$dir/env"
  echo "services: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port, OpenID Connect provider on 127.0.0.1:$oidc_port"
}

stop() {
  [ -d "$dir" ] || return 0
  if [ -f "$dir/oidc.pid" ]; then
    kill "$(cat "$dir/oidc.pid")" 2>/dev/null || true
    rm -f "$dir/oidc.pid"
  fi
  if [ -f "$dir/pg_bin" ] && [ -f "$dir/pg/data/postmaster.pid" ]; then
    as_db_user "$(cat "$dir/pg_bin")/pg_ctl" -D "$dir/pg/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}

case "$command" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: services.sh start|stop DIR" >&2; exit 2 ;;
esac
