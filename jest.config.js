/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: false }] },
  // Babel coverage instruments function bodies, which the closure serializer then captures into `__provider`.
  coverageProvider: "v8",
  testTimeout: 60000,
  modulePathIgnorePatterns: ["<rootDir>/dist/", "<rootDir>/test/fixtures/.*/work/"],
};
