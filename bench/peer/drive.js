// Load driver for bench/peer.py: plays toy matches against one server through its own
// client protocol and prints one JSON line of figures.
//   node drive.js bgio <gameUrl> <apiUrl> <lanes> <matchesPerLane> <rounds>
//   node drive.js ours <apiUrl> - <lanes> <matchesPerLane> <rounds>
//   node drive.js ours-ws <apiUrl> - <lanes> <matchesPerLane> <rounds>
// Set-up (creating and joining matches, connecting clients) happens first; then it prints
// "ready" and waits for a line on stdin before the timed part, so the caller can read the
// servers' CPU time around exactly the moves. Each lane plays its matches one after the
// other, each move waiting for the server's answer; the two seats of a match use two
// connections (bgio: two SocketIO clients; ours: two keep-alive HTTP agents; ours-ws: two
// move sockets, GET /api/games/{id}/socket, one action envelope per frame).
const http = require('http');
const readline = require('readline');

const [target, url, apiUrl, lanesArg, perLaneArg, roundsArg] = process.argv.slice(2);
const lanes = Number(lanesArg);
const perLane = Number(perLaneArg);
const rounds = Number(roundsArg);
const SEATS = 2;

function request(agent, method, href, body, headers = {}) {
  const u = new URL(href);
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request({
      agent, method, hostname: u.hostname, port: u.port, path: u.pathname + u.search,
      headers: {
        'content-type': 'application/json',
        ...(data === undefined ? {} : { 'content-length': Buffer.byteLength(data) }),  // as a browser's fetch sends it
        ...headers,
      },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        if (res.statusCode >= 300) reject(new Error(`${method} ${href}: ${res.statusCode} ${text}`));
        else resolve(text ? JSON.parse(text) : null);
      });
    });
    req.on('error', reject);
    if (data !== undefined) req.write(data);
    req.end();
  });
}

// -- boardgame.io --------------------------------------------------------------------------
async function bgioMatch(setupAgent) {
  const { Client } = require('boardgame.io/client');
  const { SocketIO } = require('boardgame.io/multiplayer');
  const { Toy } = require('./toy');
  const { matchID } = await request(setupAgent, 'POST', `${apiUrl}/games/toy/create`,
    { numPlayers: SEATS, setupData: { rounds } });
  const clients = [];
  for (let seat = 0; seat < SEATS; seat++) {
    const joined = await request(setupAgent, 'POST', `${apiUrl}/games/toy/${matchID}/join`,
      { playerID: String(seat), playerName: `p${seat}` });
    const client = Client({
      game: Toy, matchID, playerID: String(seat), credentials: joined.playerCredentials,
      multiplayer: SocketIO({ server: url, socketOpts: { transports: ['websocket'] } }), debug: false,
    });
    client.start();
    clients.push(client);
  }
  await Promise.all(clients.map((c) => until(c, (s) => s && s._stateID >= 0)));
  return clients;
}

function until(client, test) {
  return new Promise((resolve) => {
    if (test(client.getState())) return resolve(client.getState());
    const off = client.subscribe((s) => {
      if (test(s)) {
        setImmediate(() => off());
        resolve(s);
      }
    });
  });
}

async function bgioPlay(clients, latencies) {
  let moves = 0;
  for (let m = 0; m < rounds * SEATS; m++) {
    const mover = clients[m % SEATS];
    const before = (await until(mover, (s) => s && s.ctx.currentPlayer === mover.playerID))._stateID;
    const start = process.hrtime.bigint();
    mover.moves.roll();
    await until(mover, (s) => s._stateID > before);
    latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
    moves += 1;
  }
  clients.forEach((c) => c.stop());
  return moves;
}

// -- ours ----------------------------------------------------------------------------------
async function oursMatch(setupAgent) {
  const created = await request(setupAgent, 'POST', `${url}/games`,
    { game: 'toy', seats: ['p0', 'p1'], options: { rounds } });
  return created.seats.map((s) => ({
    token: s.token, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }), href: `${url}/games/${created.id}/actions`,
  }));
}

// A kept-alive connection the server closed as idle (gunicorn's keepalive) may reset the
// request sent on it; the action id makes the retry safe, as for any client of ours.
async function post(seat, body, attempts = 3) {
  try {
    return await request(seat.agent, 'POST', seat.href, body, { authorization: `Bearer ${seat.token}` });
  } catch (e) {
    if (attempts > 1 && (e.code === 'ECONNRESET' || e.code === 'EPIPE')) return post(seat, body, attempts - 1);
    throw e;
  }
}

async function oursPlay(seats, latencies) {
  let moves = 0;
  for (let m = 0; m < rounds * SEATS; m++) {
    const seat = seats[m % SEATS];
    const start = process.hrtime.bigint();
    await post(seat, { type: 'roll', payload: {}, action_id: `move-${m}` });
    latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
    moves += 1;
  }
  seats.forEach((s) => s.agent.destroy());
  return moves;
}

// -- ours over move sockets -----------------------------------------------------------------
async function oursSocketMatch(setupAgent) {
  const WebSocket = require('ws');
  const created = await request(setupAgent, 'POST', `${url}/games`,
    { game: 'toy', seats: ['p0', 'p1'], options: { rounds } });
  const wsUrl = `${url.replace(/^http/, 'ws')}/games/${created.id}/socket`;
  return Promise.all(created.seats.map((s) => new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { headers: { authorization: `Bearer ${s.token}` }, perMessageDeflate: false });
    const seat = { ws, waiting: [] };
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (seat.ready) seat.waiting.shift()(frame);
      else if (frame.status === 200) { seat.ready = true; resolve(seat); } else reject(new Error(data.toString()));
    });
    ws.on('error', reject);
  })));
}

function send(seat, body) {
  return new Promise((resolve, reject) => {
    seat.waiting.push((frame) => (frame.status >= 300 ? reject(new Error(JSON.stringify(frame))) : resolve(frame.body)));
    seat.ws.send(JSON.stringify(body));
  });
}

async function oursSocketPlay(seats, latencies) {
  let moves = 0;
  for (let m = 0; m < rounds * SEATS; m++) {
    const start = process.hrtime.bigint();
    await send(seats[m % SEATS], { type: 'roll', payload: {}, action_id: `move-${m}` });
    latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
    moves += 1;
  }
  seats.forEach((s) => s.ws.close());
  return moves;
}

async function main() {
  const setupAgent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const make = { bgio: bgioMatch, ours: oursMatch, 'ours-ws': oursSocketMatch }[target];
  const play = { bgio: bgioPlay, ours: oursPlay, 'ours-ws': oursSocketPlay }[target];
  const plan = [];
  for (let lane = 0; lane < lanes; lane++) {
    const matches = [];
    for (let i = 0; i < perLane; i++) matches.push(await make(setupAgent));
    plan.push(matches);
  }
  console.log('ready');
  const rl = readline.createInterface({ input: process.stdin });
  await new Promise((resolve) => rl.once('line', resolve));
  rl.close();
  const latencies = [];
  const start = process.hrtime.bigint();
  const counts = await Promise.all(plan.map(async (matches) => {
    let n = 0;
    for (const match of matches) n += await play(match, latencies);
    return n;
  }));
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  latencies.sort((a, b) => a - b);
  const moves = counts.reduce((a, b) => a + b, 0);
  console.log(JSON.stringify({
    moves, elapsed, p50: latencies[Math.floor(latencies.length / 2)],
    p99: latencies[Math.floor(latencies.length * 0.99)],
  }));
  setupAgent.destroy();
  process.exit(0);
}

main().catch((e) => { console.error(e); process.exit(1); });
