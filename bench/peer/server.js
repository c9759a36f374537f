// boardgame.io serving the toy game: node server.js <memory|flatfile> <port> <apiPort> [dir]
// The Lobby API runs on its own port (lobbyConfig): 0.50.2 answers 404 on the default routes.
const { Server, FlatFile } = require('boardgame.io/server');
const { Toy } = require('./toy');

const [storage, port, apiPort, dir] = process.argv.slice(2);
const db = storage === 'flatfile' ? new FlatFile({ dir, logging: false }) : undefined;
const server = Server({ games: [Toy], db, origins: ['http://127.0.0.1'] });
server.run({ port: Number(port), lobbyConfig: { apiPort: Number(apiPort) } }, () => {
  console.log('ready');
});
