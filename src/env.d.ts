/** The package version, injected by Vite's `define` at build time. */
declare const __ASKBOX_VERSION__: string;
