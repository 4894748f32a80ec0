// What the image may contain (issue 46: the executable, its glibc loader and libraries, CA
// certificates, time-zone data; passwd/group/nsswitch for the user; the /data and /tmp dirs).
const ALLOWED = [
  /^usr\/local\/bin\/mailbox-mcp$/,
  /^lib64\/ld-linux-x86-64\.so\.2$/, /^lib\/ld-linux-aarch64\.so\.1$/,
  /^lib\/(x86_64|aarch64)-linux-gnu\/lib(c|m|dl|pthread)\.so\.\d$/,
  /^etc\/ssl\/certs\/ca-certificates\.crt$/,
  /^usr\/share\/zoneinfo\//,
  /^etc\/(passwd|group|nsswitch\.conf)$/,
  // Directories on the way to those files, and the two the server may write to.
  /^(usr|usr\/local|usr\/local\/bin|usr\/share|lib|lib64|lib\/(x86_64|aarch64)-linux-gnu|etc|etc\/ssl|etc\/ssl\/certs|data|tmp)\/$/,
  // Mount points and files the container runtime creates in every container.
  /^(dev|proc|sys|run|etc\/hostname|etc\/hosts|etc\/resolv\.conf|run\/\.containerenv|dev\/.*|proc\/|sys\/|run\/)\/?$/,
];

export function allowedImageFile(path: string): boolean {
  const p = path.replace(/^\.\//, "");
  return p === "" || ALLOWED.some((re) => re.test(p));
}
