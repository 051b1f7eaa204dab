import { defineConfig } from "vite";
import { NAV_CSS, siteNav } from "./src/pages.js";

/** Bundles the reference page (index.html and Scalar) with relative URLs, so it works under any base path. */
export default defineConfig({
  base: "./",
  logLevel: "warn",
  // Vue's compile-time flags, set as its esm-bundler build asks (it warns in the console otherwise).
  define: {
    __VUE_OPTIONS_API__: "true",
    __VUE_PROD_DEVTOOLS__: "false",
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "false",
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Scalar is one large bundle; splitting it would not make the page load faster.
    chunkSizeWarningLimit: 6000,
    reportCompressedSize: false,
    rollupOptions: {
      onwarn(warning, warn) {
        // zod 4 (a dependency of Scalar) carries comments Rollup cannot place; they change nothing in the bundle.
        if (warning.code === "INVALID_ANNOTATION") return;
        warn(warning);
      },
    },
  },
  plugins: [
    {
      name: "site-nav",
      transformIndexHtml: (html) =>
        html
          .replace(
            "</head>",
            `<style>:root { --nav-background: var(--scalar-background-1); --nav-border: var(--scalar-border-color); ` +
              `--nav-color: var(--scalar-color-1); --nav-link: var(--scalar-color-2); }${NAV_CSS}</style>\n</head>`,
          )
          .replace("<body>", `<body>\n${siteNav("index.html")}`),
    },
  ],
});
