"""The site layer: where pages come from and which pages share a template.

``sources`` fetch pages (HTTP, a local mirror, a disk cache, a browser, the
address guard, a local server); ``links`` and ``menus`` read a page's links;
``candidates`` searches a complete subdigraph; ``explore`` runs that search on
a live site; ``pool`` chooses candidate pages from a local folder; ``runner``
is the one URL-extraction path of the CLI and the web app.

Nothing is imported here, so that offline commands do not load the network
stack.
"""
