import { defineConfig } from 'vitest/config';

// `import ... from 'quanta'` (strategies, tests) resolves to src/index.ts through the package's
// `quanta-source` export condition, as under tsc (tsconfig customConditions) and bin/quanta.js;
// without it, it would resolve to the build in dist/. The other names are Vite's defaults.
const SOURCE_CONDITIONS = ['quanta-source', 'module', 'node', 'development|production'];

export default defineConfig({
  ssr: { resolve: { conditions: SOURCE_CONDITIONS } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
