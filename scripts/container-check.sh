#!/usr/bin/env bash
# Builds the civitas image (Containerfile) and proves it: the container starts against the local
# PostgreSQL on a fresh database, answers readiness, and records one agent imprint (200 + receipt).
# Where no container registry is reachable, the base image is made from Debian packages
# (mmdebstrap) with the Node 24 of this checkout's npm `node` package and the host's npm copied in.
#
#   scripts/container-check.sh        (root, podman, runc, mmdebstrap; PostgreSQL on 127.0.0.1:5432)
#
# The HEALTHCHECK is run on demand (podman healthcheck run): its timer needs systemd.
# Settings: PGURL (server, default postgres://postgres@127.0.0.1:5432), CHECK_PORT (default 18080),
# BASE_IMAGE (skip the Debian base: e.g. node:24-bookworm-slim), CONTAINER_CACHE (rootfs cache).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
pgurl=${PGURL:-postgres://postgres@127.0.0.1:5432}
port=${CHECK_PORT:-18080}
image=localhost/civitas:check
base=${BASE_IMAGE:-localhost/debian:bookworm}
cache=${CONTAINER_CACHE:-$HOME/.cache/civitas-container}
db="civitas_container_check_$(date +%s)_$$"
name="civitas-check-$$"
mkdir -p "$cache"

# This sandbox: no default ulimits (rlimits are refused), runc and cgroupfs (crun fails here).
if [[ -z ${CONTAINERS_CONF:-} ]]; then
  printf '[containers]\ndefault_ulimits = []\n' >"$cache/containers.conf"
  export CONTAINERS_CONF="$cache/containers.conf"
fi
pm() { podman --runtime runc --cgroup-manager cgroupfs "$@"; }
step() { printf '\n== %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

cleanup() {
  pm rm -f "$name" >/dev/null 2>&1 || true
  dropdb --if-exists --maintenance-db="$pgurl/postgres" "$db" 2>/dev/null && echo "dropped database $db" || true
}
trap cleanup EXIT

if [[ $base == localhost/debian:bookworm ]] && ! pm image exists "$base"; then
  step "base image $base from Debian packages (mmdebstrap)"
  node24="$root/node_modules/node/bin/node"
  npmdir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  [[ -x $node24 ]] || fail "no $node24: run npm install first (the npm node package brings Node 24)"
  [[ -f $npmdir/package.json ]] || fail "cannot find npm's own folder (looked at $npmdir)"
  # The host's own certificate authorities (a TLS-inspecting egress proxy, say) so npm reaches
  # the registry from inside the build exactly as it does on the host.
  trust=()
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    trust=(--customize-hook="copy-in $(echo /usr/local/share/ca-certificates/*.crt) /usr/local/share/ca-certificates"
      --customize-hook='chroot "$1" update-ca-certificates')
  fi
  if [[ ! -s $cache/rootfs.tar ]]; then
    mmdebstrap --variant=minbase --format=tar --include=ca-certificates,libstdc++6 \
      --customize-hook="copy-in $node24 /usr/local/bin" \
      --customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules\"" \
      --customize-hook="copy-in $npmdir /usr/local/lib/node_modules" \
      --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"' \
      --customize-hook='ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"' \
      "${trust[@]}" \
      bookworm "$cache/rootfs.part.tar" || fail "mmdebstrap could not make the Debian root file system"
    mv "$cache/rootfs.part.tar" "$cache/rootfs.tar"
  fi
  pm import --change 'ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    "$cache/rootfs.tar" "$base" >/dev/null
else
  step "base image $base (present)"
fi

step "build $image (Containerfile, BASE_IMAGE=$base)"
started=$SECONDS
pm build --format docker --network host --build-arg "BASE_IMAGE=$base" -t "$image" "$root"
echo "built in $((SECONDS - started)) s"
pm image inspect --format 'user={{.Config.User}} healthcheck={{.Config.Healthcheck.Test}}' "$image"

step "fresh database $db (npm run db:create in the image)"
pm run --rm --no-healthcheck --network host -e "DATABASE_URL=$pgurl/$db" "$image" npm run db:create

step "start the API container on 127.0.0.1:$port"
echo "(podman's 'unable to get systemd connection' lines are harmless: the HEALTHCHECK runs on demand below)"
pm run -d --name "$name" --health-interval disable --network host -e "DATABASE_URL=$pgurl/$db" -e "PORT=$port" \
  -e HOST=127.0.0.1 -e CIVITAS_WORKERS=1 -e "CIVITAS_ORIGIN=http://127.0.0.1:$port" "$image" >/dev/null

ready=
for _ in $(seq 1 60); do
  if curl -fsS -m 2 "http://127.0.0.1:$port/_health" >/dev/null 2>&1; then ready=1 && break; fi
  [[ $(pm inspect -f '{{.State.Running}}' "$name") == true ]] || break
  sleep 1
done
if [[ -z $ready ]]; then
  pm logs --tail 40 "$name" >&2 || true
  fail "not ready within 60 s"
fi
echo "ready: GET /_health -> $(curl -sS -m 5 "http://127.0.0.1:$port/_health")"
echo "live:  GET /health/live -> $(curl -sS -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health/live")"
pm healthcheck run "$name" && echo "HEALTHCHECK: healthy" || fail "HEALTHCHECK failed"

step "POST /api/agent/imprint"
reply=$(curl -sS -m 10 -w '\n%{http_code}' -H 'content-type: application/json' \
  -d '{"agent":"container-check","body":"hello from the container"}' \
  "http://127.0.0.1:$port/api/agent/imprint")
status=${reply##*$'\n'}
body=${reply%$'\n'*}
# Print what the check needs only: the answer also carries the agent's continuity secret.
echo "HTTP $status receipt_id=$(grep -o '"receipt_id":"[^"]*"' <<<"$body" | cut -d'"' -f4)"
[[ $status == 200 ]] || fail "expected 200, got $status"
[[ $body == *'"receipt_id"'* ]] || fail "no receipt_id in the answer"

step "stop and remove the container"
pm stop -t 10 "$name" >/dev/null
pm rm "$name" >/dev/null
echo "PASS: image $image built, started, ready, imprint recorded"
