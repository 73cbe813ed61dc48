/** The package version, injected by Vite's `define` at build time. */
declare const __ASKBOX_VERSION__: string;
/** The chat file's name in dist/ (askbox-chat.<hash>.js), written into the launcher by the `embed` build. */
declare const __ASKBOX_CHAT_FILE__: string;
/** The chat file's Subresource Integrity (`sha384-…`), written into the launcher by the `embed` build. */
declare const __ASKBOX_CHAT_INTEGRITY__: string;
/** The add-on files' names in dist/ and their Subresource Integrity, by kind, written into the chat file by the build. */
declare const __ASKBOX_ADDONS__: Readonly<Record<'code' | 'math', { file: string; integrity: string }>>;
/** The greeting's file name in dist/ (askbox-greeting.<hash>.js), written into the launcher by the `embed` build. */
declare const __ASKBOX_GREETING_FILE__: string;
/** The greeting's file's Subresource Integrity (`sha384-…`), written into the launcher by the `embed` build. */
declare const __ASKBOX_GREETING_INTEGRITY__: string;
