// What a user's CommonJS program gets for `require('phit')` (or phit's index.ts) under the
// `phit` command: the running phit's own modules, shared by share-api.ts.
// eslint-disable-next-line no-undef -- a CommonJS file: module is its own
module.exports = globalThis[Symbol.for('phit.api')];
