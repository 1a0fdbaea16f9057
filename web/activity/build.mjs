// Builds the Activity's script: activity.js with the Embedded App SDK, minified, into the
// server's embedded assets (src/platform/web/assets/activity.js). Run `npm ci && npm run
// build` here after changing activity.js or the SDK's version; commit both.
import { build } from "esbuild";

await build({
  entryPoints: ["activity.js"],
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  legalComments: "none",
  charset: "utf8",
  outfile: "../../src/platform/web/assets/activity.js",
  banner: {
    js: "/* toguz Discord Activity: web/activity/activity.js with @discord/embedded-app-sdk (MIT), built by web/activity/build.mjs */",
  },
});
