# Sourced by the bin/ scripts: one way to run a module's CLI from the repository.
# module_cli MODULE SCOPE "MODULES" MAIN [ARGS...] compiles MODULE and the modules it needs once
# (again when a source of one of MODULES or a POM is newer than the last build), resolves its SCOPE
# classpath into MODULE/target, then execs MAIN with ARGS. JVM_OPTS (an array) is passed to java;
# BUILD_PHASE (default compile) is the Maven phase that builds the modules.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

module_cli() {
  local module=$1 scope=$2 modules=$3 main=$4
  shift 4
  local target="$ROOT/$module/target" name="${main##*.}"
  local cp_file="$target/$name.classpath" stamp="$target/$name.stamp"
  local sources=()
  for m in $modules; do sources+=("$ROOT/$m/src/main" "$ROOT/$m/pom.xml"); done
  if [[ ! -f "$cp_file" || ! -f "$stamp" || ! -d "$target/classes" \
        || -n "$(find "${sources[@]}" "$ROOT/pom.xml" -newer "$stamp" -print -quit)" ]]; then
    (cd "$ROOT" && mvn -B -q -Dstyle.color=never -pl "$module" -am "${BUILD_PHASE:-compile}" dependency:build-classpath \
        -Dmdep.outputFile="$cp_file" -DincludeScope="$scope" -Dspotless.check.skip=true) >&2
    touch "$stamp"
  fi
  local classes=""
  for m in $modules; do classes+="$ROOT/$m/target/classes:"; done
  exec java ${JVM_OPTS[@]+"${JVM_OPTS[@]}"} -cp "$classes$(cat "$cp_file")" "$main" "$@"
}
