export * from './arbitraries/index.js';
