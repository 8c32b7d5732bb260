# A single-node Slurm on localhost for the batch tests (sourced, not a test itself):
# slurmctld + slurmd from a generated slurm.conf in a temp folder, auth/none and
# cred/none (no munge), on ports nothing else uses. `slurm_start DIR` returns 1 with
# SLURM_SKIP_REASON set when Slurm is not installed or cannot start here.
SLURM_SKIP_REASON=""

slurm_start() {
  local dir=$1
  for p in slurmctld slurmd sbatch squeue sinfo; do
    if ! command -v "$p" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$p" ]; then
      SLURM_SKIP_REASON="Slurm is not installed ($p missing; containers/install-deps.sh installs slurm-wlm)"
      return 1
    fi
  done
  if [ "$(id -u)" -ne 0 ]; then
    SLURM_SKIP_REASON="slurmd must run as root to start jobs as their user"
    return 1
  fi
  local plugindir
  plugindir=$(dirname "$(find /usr/lib -name auth_none.so -path '*slurm*' 2>/dev/null | head -1)")
  if [ ! -f "$plugindir/auth_none.so" ] || [ ! -f "$plugindir/cred_none.so" ]; then
    SLURM_SKIP_REASON="this Slurm has no auth/none or cred/none plugin"
    return 1
  fi
  local node cpus mem port
  node=$(hostname -s)
  cpus=$(nproc)
  mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 ))
  port=$(( 20000 + RANDOM % 20000 ))
  mkdir -p "$dir/state" "$dir/spool"
  cat >"$dir/slurm.conf" <<CONF
ClusterName=parlabtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/none
CredType=cred/none
PluginDir=$plugindir
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$dir/slurm.conf
  /usr/sbin/slurmctld -i -f "$SLURM_CONF" >"$dir/slurmctld.out" 2>&1 || true
  /usr/sbin/slurmd -N "$node" -f "$SLURM_CONF" >"$dir/slurmd.out" 2>&1 || true
  local i
  for i in $(seq 1 60); do
    if sinfo -h -o '%T' 2>/dev/null | grep -E '^(idle|mixed|allocated)' >/dev/null; then return 0; fi
    sleep 1
  done
  SLURM_SKIP_REASON="slurmctld/slurmd did not come up: $(tail -n 3 "$dir/slurmctld.log" "$dir/slurmd.log" 2>/dev/null | tr '\n' ' ')"
  slurm_stop "$dir"
  return 1
}

# Stops the daemons this test started (by their pid files, nothing else).
slurm_stop() {
  local dir=$1 f
  for f in "$dir/slurmd.pid" "$dir/slurmctld.pid"; do
    [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
  done
  sleep 1
  for f in "$dir/slurmd.pid" "$dir/slurmctld.pid"; do
    [ -s "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
  done
  return 0
}

# Waits until job $1 has left the queue (finished, failed or cancelled); $2 seconds max.
slurm_wait_job() {
  local id=$1 limit=$2 i
  for i in $(seq 1 "$limit"); do
    if [ -z "$(squeue -h -j "$id" 2>/dev/null)" ]; then return 0; fi
    sleep 1
  done
  return 1
}
