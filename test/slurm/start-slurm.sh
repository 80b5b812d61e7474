#!/bin/sh
# A single-node Slurm on this machine, for test/sweep-slurm.test.ts: installs Debian's slurm-wlm
# and munge, writes a minimal slurm.conf for one node (this host, its real CPUs and memory), starts
# munged, slurmctld and slurmd in the background (no systemd needed) and waits until the node is
# idle. Run it as root on Debian: sudo sh test/slurm/start-slurm.sh
# Settings that need neither systemd nor cgroups: process tracking through /proc, no task binding,
# no accounting. Running it again when the node is already up does nothing.
set -eu

say() { echo "start-slurm: $*"; }
fail() { say "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "run me as root"

node_state() { sinfo -h -N -o %t 2>/dev/null | head -n 1; }

if command -v sinfo >/dev/null 2>&1 && [ "$(node_state)" = idle ]; then
  say "Slurm is already up: $(sinfo -h -N -o '%N %t %c CPUs')"
  exit 0
fi

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v slurmd >/dev/null 2>&1 || ! command -v sbatch >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  command -v apt-get >/dev/null 2>&1 || fail "no apt-get: install slurm-wlm and munge yourself"
  say "installing slurm-wlm and munge"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

host=$(hostname -s)
conf=/etc/slurm/slurm.conf
spool=/var/spool/phit-slurm
logs=/var/log/phit-slurm
mkdir -p /etc/slurm "$spool/ctld" "$spool/d" "$logs" /run/munge /var/lib/munge /var/log/munge

# the node as slurmd sees it: CPUs, sockets, cores, threads, real memory
hw=$(slurmd -C | head -n 1 | sed 's/^NodeName=[^ ]* //')
say "node $host: $hw"
cat >"$conf" <<EOF
# written by test/slurm/start-slurm.sh: one node, no systemd, no cgroups
ClusterName=phit
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
SwitchType=switch/none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
StateSaveLocation=$spool/ctld
SlurmdSpoolDir=$spool/d
SlurmctldPidFile=/run/phit-slurmctld.pid
SlurmdPidFile=/run/phit-slurmd.pid
SlurmctldLogFile=$logs/slurmctld.log
SlurmdLogFile=$logs/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
NodeName=$host NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=phit Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

# munge: a key of its own (once), the daemon as the munge user when there is one
if [ ! -s /etc/munge/munge.key ]; then
  say "creating a munge key"
  if command -v mungekey >/dev/null 2>&1; then mungekey --create --force; else dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null; fi
fi
if id munge >/dev/null 2>&1; then
  chown munge:munge /etc/munge /etc/munge/munge.key /run/munge /var/lib/munge /var/log/munge
fi
chmod 0700 /etc/munge
chmod 0400 /etc/munge/munge.key
if ! munge -n >/dev/null 2>&1; then
  say "starting munged"
  if id munge >/dev/null 2>&1; then
    runuser -u munge -- munged
  else
    munged --force
  fi
fi
munge -n | unmunge >/dev/null || fail "munge does not work (see /var/log/munge/munged.log)"

# the daemons, restarted so that they read this configuration
for pidfile in /run/phit-slurmd.pid /run/phit-slurmctld.pid; do
  if [ -s "$pidfile" ]; then kill "$(cat "$pidfile")" 2>/dev/null || true; fi
done
say "starting slurmctld and slurmd (logs in $logs)"
slurmctld -c || fail "slurmctld did not start: $(tail -n 3 "$logs/slurmctld.log" 2>/dev/null)"
slurmd || fail "slurmd did not start: $(tail -n 3 "$logs/slurmd.log" 2>/dev/null)"

tries=0
while [ "$(node_state)" != idle ]; do
  tries=$((tries + 1))
  if [ "$tries" -gt 60 ]; then
    fail "the node is not idle after 60 s (state: $(node_state)); see $logs/slurmctld.log and $logs/slurmd.log"
  fi
  sleep 1
done
say "Slurm is up: $(sinfo -h -N -o '%N %t %c CPUs')"
