"""The headers every answer of the browser classroom carries."""

#: Headers on every answer.  Cross-origin isolation (COOP and COEP) lets the kernel read
#: its files without the site's service worker, which a browser runs only on localhost
#: or https: so the site works on a plain-http LAN address too (see course.site.patches).
ISOLATION = {
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
}
