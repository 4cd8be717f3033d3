// Mutations of the input-required area (requirements digest).

import type { Mutation } from '../mutation.js';

export const INPUT_REQUIRED_MUTATIONS: Mutation[] = [];
