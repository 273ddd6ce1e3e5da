#!/usr/bin/env bash
# Starts a throwaway Ceph RADOS Gateway (S3) on 127.0.0.1 for tests: one monitor and one memstore OSD
# (data in memory), auth off inside the cluster, SigV4 on the S3 side.
#
# usage: rgw-start.sh DIR MON_PORT RGW_PORT ACCESS_KEY SECRET_KEY [OTHER_ACCESS_KEY OTHER_SECRET_KEY]
# The optional second user owns nothing: tests use it to see AccessDenied.
# DIR must be an empty directory; everything (config, logs, pid files) stays inside it.
# On success prints "ready" and leaves three daemons running (pid files in DIR/run/*.pid);
# stop them with rgw-stop.sh DIR. Needs: ceph-mon ceph-osd radosgw (Debian packages).
set -euo pipefail

dir=$1 mon_port=$2 rgw_port=$3 access_key=$4 secret_key=$5 other_access_key=${6:-} other_secret_key=${7:-}
conf="$dir/ceph.conf"
fsid=$(cat /proc/sys/kernel/random/uuid)
mkdir -p "$dir/run" "$dir/log" "$dir/mon/ceph-a" "$dir/osd/ceph-0" "$dir/rgw"

cat >"$conf" <<EOF
[global]
fsid = $fsid
mon_host = [v1:127.0.0.1:$mon_port]
log_to_stderr = false
err_to_stderr = false
mon_initial_members = a
auth_cluster_required = none
auth_service_required = none
auth_client_required = none
ms_bind_msgr2 = false
run_dir = $dir/run
pid_file = $dir/run/\$name.pid
admin_socket = $dir/run/\$name.asok
log_file = $dir/log/\$name.log
keyring = $dir/keyring
mon_data = $dir/mon/\$cluster-\$id
osd_data = $dir/osd/\$cluster-\$id
osd_objectstore = memstore
memstore_device_bytes = 2147483648
osd_pool_default_size = 1
osd_pool_default_min_size = 1
osd_pool_default_pg_num = 8
osd_pool_default_pgp_num = 8
osd_pool_default_pg_autoscale_mode = off
mon_allow_pool_size_one = true
mon_allow_pool_delete = true
mon_max_pg_per_osd = 1000
paxos_propose_interval = 0.1
osd_class_update_on_start = false
osd_crush_update_on_start = false
osd_crush_chooseleaf_type = 0
mon_warn_on_pool_no_redundancy = false
debug_ms = 0/0
debug_rgw = 0/0
debug_osd = 0/0
debug_objclass = 0/0
debug_bluestore = 0/0
debug_mon = 0/0
debug_paxos = 0/0
[client.rgw.a]
rgw_frontends = beast endpoint=127.0.0.1:$rgw_port tcp_nodelay=1
rgw_data = $dir/rgw
rgw_dns_name = 127.0.0.1
rgw_enable_ops_log = false
rgw_enable_usage_log = false
EOF

ceph_() { timeout 60 ceph -c "$conf" --connect-timeout 30 "$@"; }

# Monitor.
ceph-authtool --create-keyring "$dir/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
monmaptool --create --fsid "$fsid" --addv a "[v1:127.0.0.1:$mon_port]" "$dir/monmap" >/dev/null
ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" --keyring "$dir/keyring"
ceph-mon -c "$conf" -i a

# One OSD, placed in the CRUSH map by hand (automatic placement at start is flaky here).
osd_uuid=$(cat /proc/sys/kernel/random/uuid)
osd_id=$(ceph_ osd new "$osd_uuid")
ceph-osd -c "$conf" -i "$osd_id" --mkfs --osd-uuid "$osd_uuid" 2>>"$dir/log/osd-mkfs.log"
ceph_ osd crush add "osd.$osd_id" 1.0 root=default >/dev/null 2>&1
ceph-osd -c "$conf" -i "$osd_id"
for _ in $(seq 1 300); do
  if ceph_ osd dump 2>/dev/null | grep -q "^osd.$osd_id up"; then break; fi
  sleep 0.1
done

# The S3 user, then the gateway.
timeout 60 radosgw-admin -c "$conf" user create --uid=skein --display-name=skein \
  --access-key="$access_key" --secret-key="$secret_key" >/dev/null
if [ -n "$other_access_key" ]; then
  timeout 60 radosgw-admin -c "$conf" user create --uid=skein-other --display-name=skein-other \
    --access-key="$other_access_key" --secret-key="$other_secret_key" >/dev/null
fi
radosgw -c "$conf" -n client.rgw.a
for _ in $(seq 1 600); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$rgw_port") 2>/dev/null; then echo ready; exit 0; fi
  sleep 0.1
done
echo "radosgw did not open 127.0.0.1:$rgw_port; see $dir/log" >&2
exit 1
