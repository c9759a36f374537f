// The toy game of tests/toygame.py written for boardgame.io: a shuffled deck dealt two
// cards a seat, `play` a card from your hand (draw the next), `roll` a die, `note` a
// secret letter; seats take turns; each plays `rounds` moves; the highest score wins.
// Moves are `client: false` so a client waits for the server's answer, as ours does.
const { INVALID_MOVE } = require('boardgame.io/core');

function advance(G, events) {
  G.moves += 1;
  events.endTurn();
}

const Toy = {
  name: 'toy',
  minPlayers: 1,
  maxPlayers: 4,
  setup: ({ ctx, random }, setupData) => {
    const rounds = (setupData && setupData.rounds) || 3;
    const deck = random.Shuffle(Array.from({ length: 40 }, (_, i) => i + 1));
    const n = ctx.numPlayers;
    return {
      deck: deck.slice(2 * n),
      hands: Array.from({ length: n }, (_, s) => deck.slice(2 * s, 2 * s + 2)),
      scores: Array(n).fill(0),
      notes: Array.from({ length: n }, () => []),
      moves: 0,
      limit: rounds * n,
    };
  },
  moves: {
    play: {
      move: ({ G, playerID, events }, card) => {
        const hand = G.hands[playerID];
        const at = hand.indexOf(card);
        if (at < 0) return INVALID_MOVE;
        hand.splice(at, 1);
        G.scores[playerID] += card;
        if (G.deck.length) hand.push(G.deck.shift());
        advance(G, events);
      },
      client: false,
    },
    roll: {
      move: ({ G, playerID, random, events }) => {
        G.scores[playerID] += random.D6();
        advance(G, events);
      },
      client: false,
    },
    note: {
      move: ({ G, playerID }, text) => {
        if (text !== 'a' && text !== 'b') return INVALID_MOVE;
        G.notes[playerID].push(text);
      },
      client: false,
    },
  },
  endIf: ({ G }) => (G.moves >= G.limit ? { scores: G.scores } : undefined),
  playerView: ({ G, playerID }) => ({
    ...G,
    deck: G.deck.length,
    hands: G.hands.map((h, s) => (String(s) === String(playerID) ? h : h.length)),
    notes: G.notes.map((n, s) => (String(s) === String(playerID) ? n : n.length)),
  }),
};

module.exports = { Toy };
