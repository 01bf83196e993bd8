# Sourced by bin/cold-start and bin/function-image: how a function runs (its JVM flags, its image's
# entrypoint), one Cassandra-backed read per function group (the request a cold start waits for,
# and the one an AOT cache is trained on), and the data those reads find. Expects the caller's
# environment: CQL_CONTACT_POINTS, CQL_KEYSPACE, the local keys (JWT_PUBLIC_KEY_LOCATION,
# CURSOR_SECRET) and RATE_LIMITS_ENABLED=false.

# Seeds through the whole service (target/quarkus-app): a user in a conversation, a click this
# month, a public paste, a group member, a tagged song, a post. Sets PROBE and NEEDS_TOKEN.
probes_seed() {
  local log=$1 port=18979 pid body
  body=$(mktemp)
  PORT=$port java -Dquarkus.shutdown.delay=0S -jar target/quarkus-app/quarkus-run.jar >"$log" 2>&1 & pid=$!
  until curl -sf "localhost:$port/q/health/ready" >/dev/null; do kill -0 $pid || { cat "$log"; return 1; }; sleep 0.5; done
  local A="Authorization: Bearer $(bin/token coldstart)" B="Authorization: Bearer $(bin/token coldstart2)" J='Content-Type: application/json'
  call() { curl -s -o "$body" -w '%{http_code}' "$@"; }
  call -H "$A" -H "$J" -d '{"username":"coldstart","email":"coldstart@bench.example"}' "localhost:$port/users" >/dev/null
  call -H "$B" -H "$J" -d '{"username":"coldstart2","email":"coldstart2@bench.example"}' "localhost:$port/users" >/dev/null
  call -H "$A" -H "$J" -d '{"members":["coldstart2"]}' "localhost:$port/conversations" >/dev/null
  call -H "$J" -d '{"url":"https://example.com/cold-start"}' "localhost:$port/clicks" >/dev/null
  call -H "$J" -d '{"title":"cold start","body":"seed","private":false,"expiresIn":"P1D"}' "localhost:$port/pastes" >/dev/null
  call -X PUT -H "$A" "localhost:$port/groups/coldstart/members/coldstart" >/dev/null
  call -X PUT -H "$A" -H "$J" -d '{"tags":["coldstart"]}' "localhost:$port/songs/coldstart/album/song" >/dev/null
  [ "$(call -H "$A" -H "$J" -d '{"body":"cold start probe"}' "localhost:$port/posts")" = 201 ] || { echo "probes: seeding a post failed" >&2; return 1; }
  local post_id
  post_id=$(grep -oP '"id"\s*:\s*"\K[^"]+' "$body"); rm -f "$body"
  kill $pid; wait $pid || true
  local month
  month=$(date -u +%Y-%m)
  declare -gA PROBE=([ring]=/ring [messenger]=/inbox [courses]="/clicks?from=$month&to=$month" [pastebin]=/pastes
    [people]=/groups/coldstart/members [songs]=/songs?tag=coldstart [posts]=/posts/$post_id)
  declare -gA NEEDS_TOKEN=([messenger]=1 [people]=1)
}

# The bearer token a group's probe sends, if it needs one (ColdStart.java reads PROBE_TOKEN).
probe_token() { if [ -n "${NEEDS_TOKEN[$1]:-}" ]; then bin/token coldstart 3600; fi; }   # the longest lifetime the service takes (JWT_MAX_LIFETIME)

# The JVM flags of every function: k8s/base's JAVA_TOOL_OPTIONS, plus the heap that its
# MaxRAMPercentage=25 gives in a function's 256Mi pod (k8s/functions), as no cgroup limits it here.
function_flags() { echo "$(grep -oP 'JAVA_TOOL_OPTIONS=\K.*' k8s/base/kustomization.yaml) -Xmx64m"; }

# The JVM arguments of an image's entrypoint (java <these> -jar quarkus-run.jar), one per line,
# from its config (bin/image-rootfs writes it).
image_jvm_args() {
  node -e 'const e = require(process.argv[1]).config.Entrypoint;
    if (e[0] !== "java" || e[e.length - 2] !== "-jar") { console.error("unexpected entrypoint: " + e.join(" ")); process.exit(1); }
    for (const a of e.slice(1, -2)) console.log(a)' "$(readlink -f "$1")"
}
