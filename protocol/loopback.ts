/** A host name that always means this machine (localhost, 127.x.x.x, [::1]), as URL.hostname gives it. */
export function isLoopbackHost(hostname: string): boolean {
  return /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i.test(hostname);
}
