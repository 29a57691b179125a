# A small API whose port is set in its JSON config, docker-compose.yml and the README; 3000 also appears as a timeout.
mkdir -p config src
cat > package.json <<'JSON'
{ "name": "notes-api", "type": "module", "scripts": { "start": "node src/server.js" } }
JSON
cat > config/default.json <<'JSON'
{
  "server": {
    "host": "0.0.0.0",
    "port": 3000,
    "timeoutMs": 3000
  },
  "database": {
    "url": "postgres://db:5432/notes"
  }
}
JSON
cat > src/config.js <<'JS'
import { readFileSync } from 'node:fs';

export function loadConfig(env = process.env) {
  const config = JSON.parse(readFileSync(new URL('../config/default.json', import.meta.url), 'utf8'));
  return { ...config.server, port: Number(env.PORT ?? config.server.port), databaseUrl: config.database.url };
}
JS
cat > src/server.js <<'JS'
import { createServer } from 'node:http';
import { loadConfig } from './config.js';

const config = loadConfig();
const server = createServer((req, res) => {
  res.writeHead(req.url === '/health' ? 200 : 404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ ok: req.url === '/health' }));
});
server.requestTimeout = config.timeoutMs;
server.listen(config.port, config.host, () => console.log(`listening on ${config.port}`));
JS
cat > docker-compose.yml <<'YAML'
services:
  app:
    build: .
    ports:
      - "3000:3000"
    environment:
      PORT: "3000"
      REQUEST_TIMEOUT_MS: "3000"
    depends_on:
      - db
  db:
    image: postgres:16
    ports:
      - "5432:5432"
YAML
cat > README.md <<'MD'
# notes-api

Start it with `docker compose up`, then open http://localhost:3000/health.

## Configuration

`config/default.json` holds the defaults: the server listens on port 3000 and gives up on a
request after 3000 ms. `PORT` in the environment overrides the port.
MD
