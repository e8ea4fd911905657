#!/usr/bin/env bash
# Album Store: static checks of deploy/ that need no AWS and no running server.
#   - shellcheck on every shell script (including setenv.sh, which is POSIX sh);
#   - the CloudFormation template parses and names only what it defines (aws/check-template.py,
#     after the checker's own self-test);
#   - tomcat/server.xml is well-formed XML.
# Exits non-zero on the first kind of problem found. shellcheck comes from Debian's packages:
#   apt-get install -y shellcheck
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

command -v shellcheck >/dev/null || {
  echo "check.sh: shellcheck is not installed (apt-get install -y shellcheck)" >&2
  exit 1
}
# A python3 with PyYAML: the default one, else Debian's (apt-get install -y python3-yaml).
python=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c 'import yaml' 2>/dev/null; then
    python=$candidate
    break
  fi
done
[[ -n $python ]] || {
  echo "check.sh: no python3 with PyYAML (apt-get install -y python3-yaml)" >&2
  exit 1
}

# Not target/: the Maven build of this folder unpacks stock Tomcat distributions there (their
# bin/*.sh are Apache's, not ours).
mapfile -t scripts < <(find . -path ./target -prune -o -type f -name '*.sh' -print | sort)
echo "shellcheck: ${#scripts[@]} scripts"
shellcheck -x "${scripts[@]}"

"$python" aws/check-template.py --self-test
"$python" aws/check-template.py aws/template.yaml

"$python" -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' tomcat/server.xml
echo "server.xml: well-formed"
echo "deploy/check.sh: all checks passed"
