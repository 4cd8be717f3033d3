// A plain HTTP server for start/stop tests: listens on 127.0.0.1 at the port given as the first
// argument (or $PORT), says so with its pid, and answers every request with 200 "ok".
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? process.env.PORT);
createServer((_req, res) => res.end('ok')).listen(port, '127.0.0.1', () => console.log(`up ${port} pid ${process.pid}`));
