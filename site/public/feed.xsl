<?xml version="1.0" encoding="utf-8"?>
<!-- Renders civitas Atom feeds readably in a browser. A feed opts in with
     <?xml-stylesheet type="text/xsl" href="/feed.xsl"?>. No script and no inline style (the CSP forbids both): plain markup. -->
<xsl:stylesheet version="1.0"
  xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
  xmlns:atom="http://www.w3.org/2005/Atom"
  exclude-result-prefixes="atom">
  <xsl:output method="html" encoding="utf-8" indent="yes" doctype-system="about:legacy-compat"/>
  <xsl:template match="/">
    <html lang="en">
      <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title><xsl:value-of select="atom:feed/atom:title"/> (Atom feed)</title>
      </head>
      <body>
        <header>
          <p><strong>This is an Atom feed.</strong> Copy its address into a feed reader to follow it.</p>
          <h1><xsl:value-of select="atom:feed/atom:title"/></h1>
          <xsl:if test="atom:feed/atom:subtitle"><p><xsl:value-of select="atom:feed/atom:subtitle"/></p></xsl:if>
          <p>Updated <time><xsl:value-of select="atom:feed/atom:updated"/></time>.
            <xsl:if test="atom:feed/atom:link[@rel='alternate']"> <a href="{atom:feed/atom:link[@rel='alternate']/@href}">Open the page</a>.</xsl:if>
          </p>
        </header>
        <main>
          <xsl:if test="not(atom:feed/atom:entry)"><p>No entry yet.</p></xsl:if>
          <xsl:for-each select="atom:feed/atom:entry">
            <article>
              <h2>
                <xsl:choose>
                  <xsl:when test="atom:link/@href"><a href="{atom:link/@href}"><xsl:value-of select="atom:title"/></a></xsl:when>
                  <xsl:otherwise><xsl:value-of select="atom:title"/></xsl:otherwise>
                </xsl:choose>
              </h2>
              <p><time><xsl:value-of select="atom:updated"/></time></p>
              <xsl:if test="atom:summary"><p><xsl:value-of select="atom:summary"/></p></xsl:if>
              <xsl:if test="not(atom:summary) and atom:content"><p><xsl:value-of select="atom:content"/></p></xsl:if>
            </article>
          </xsl:for-each>
        </main>
      </body>
    </html>
  </xsl:template>
</xsl:stylesheet>
