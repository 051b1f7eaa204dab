// Shared flat ESLint config: typescript-eslint's recommended type-aware rules for every package.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  // tsup.config.bundled_*.mjs: tsup's bundle of its config, written and removed while a build runs; lint runs
  // beside the package's own build, and would otherwise list the file and then fail to read it.
  { ignores: ["**/dist/**", "**/node_modules/**", "**/.turbo/**", "**/coverage/**", "**/*.bundled_*.mjs"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true },
    },
    rules: {
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/only-throw-error": "error",
      // `interface FooSchema extends FooSchemaType {}` names a zod schema's type so that declaration
      // files refer to it instead of repeating it (the contract's .d.ts shrank from 1.4 MB to 0.2 MB).
      "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "with-single-extends" }],
    },
  },
  {
    // Tests read JSON replies whose shape is what they assert; typing each one would add nothing.
    files: ["**/*.test.ts", "**/test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    files: ["**/*.js", "**/*.cjs", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
);
