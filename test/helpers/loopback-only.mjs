// Preload (`node --import <this file>`) that keeps a third-party server on the loopback
// interface: a `listen()` call that names a TCP port but no host would bind every interface;
// here it binds 127.0.0.1 instead. Used for servers whose CLI offers no host option
// (server-everything's Streamable HTTP mode calls `app.listen(PORT)`).
import net from 'node:net';

const originalListen = net.Server.prototype.listen;

function isPort(value) {
  return (typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && /^\d+$/.test(value));
}

net.Server.prototype.listen = function listenOnLoopback(...args) {
  const [first, second] = args;
  if (isPort(first) && typeof second !== 'string') {
    args.splice(1, 0, '127.0.0.1');
  } else if (first && typeof first === 'object' && !Array.isArray(first) && 'port' in first && !first.host && !first.path) {
    args[0] = { ...first, host: '127.0.0.1' };
  }
  return originalListen.apply(this, args);
};
