/**
 * The reference page: Scalar renders openapi.json, which sits beside the page. Everything it needs is
 * bundled, and every feature that would call out to the internet is off, so the page works offline.
 */
import { createApiReference } from "@scalar/api-reference";
import "@scalar/api-reference/style.css";

createApiReference("#reference", {
  // Relative to the page, so that the site works under any base path (/docs/, /, …).
  url: "./openapi.json",
  title: "cloudplane API",
  // No fonts from Scalar's CDN, no telemetry, no AI agent or MCP (hosted by Scalar), no developer tools.
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  documentDownloadType: "json",
  showOperationId: true,
  defaultOpenAllTags: true,
  // The header's value is the scheme word and the token, which Scalar sends as it is: the document's scheme
  // fills in the scheme word (x-scalar-secret-token), or the local app's demo key, and its description says
  // where a token comes from.
  authentication: { preferredSecurityScheme: "apikey" },
  customCss: ":root { --scalar-custom-header-height: 48px; }",
});
