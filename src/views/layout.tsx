// The page shell shared by the setup form and the error pages: viewport for phones, one inline
// stylesheet allowed by the CSP nonce, no external resources.
import { Html, type PropsWithChildren } from "@kitajs/html";

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f6f8fa}
main{max-width:34rem;margin:0 auto;padding:1.25rem 1rem 3rem}
.card{background:#fff;border:1px solid #d0d7de;border-radius:12px;padding:1.25rem}
h1{font-size:1.4rem;line-height:1.25;margin:0 0 .75rem}
p{margin:.5rem 0}
.who{background:#eef6ff;border:1px solid #b6d4fe;border-radius:8px;padding:.6rem .8rem}
.declared-line{font-size:.95rem;margin:.6rem 0}
q.declared{quotes:"\\201C" "\\201D";font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;background:#fff8c5;border:1px dashed #9a6700;border-radius:4px;padding:0 .25rem;overflow-wrap:anywhere}
.error{background:#fff1f0;border:1px solid #ffa39e;color:#a8071a;border-radius:8px;padding:.6rem .8rem}
label{display:block;font-weight:600;margin:1rem 0 .3rem}
.opt{font-weight:400;color:#57606a}
input,select{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #8c959f;border-radius:8px;background:#fff;color:inherit}
input:focus,select:focus{outline:3px solid #80b3ff;outline-offset:1px}
fieldset{border:1px solid #d0d7de;border-radius:8px;margin:1.25rem 0 0;padding:.25rem .9rem .9rem;min-width:0}
legend{float:left;width:100%;font-weight:600;margin:.75rem 0 .4rem;padding:0}
legend+*{clear:both}
.row{display:flex;flex-wrap:wrap;column-gap:.6rem}.row>div{flex:1 1 12rem;min-width:0}.row>div.port{flex:0 1 6.5rem}
.row label{margin-top:.75rem}
label.choice{display:flex;gap:.6rem;align-items:flex-start;font-weight:400;margin:.6rem 0 0;cursor:pointer}
input[type=radio]{width:auto;flex:none;margin:.3rem 0 0;padding:0;accent-color:#1f6feb}
@media (max-width:30rem){main{padding:.75rem .5rem 2rem}.card{padding:1rem .85rem}fieldset{padding:.25rem .7rem .8rem}}
button{width:100%;margin-top:1.5rem;font:inherit;font-weight:600;padding:.75rem;border:0;border-radius:8px;background:#1f6feb;color:#fff;cursor:pointer}
button:disabled{background:#8c959f;cursor:progress}
.hint{color:#57606a;font-size:.9rem}
details{margin-top:.75rem}summary{cursor:pointer;color:#0969da}
details ul{padding-left:1.2rem}
a{color:#0969da}
button:focus-visible,a:focus-visible,summary:focus-visible{outline:3px solid #80b3ff;outline-offset:2px}
button.secondary{background:#fff;color:#1f2328;border:1px solid #8c959f}button.danger{background:#cf222e}
.conn{border-top:1px solid #d0d7de;padding-top:.75rem;margin-top:1rem}.log{padding-left:0;list-style:none}.log li{border-top:1px solid #eaeef2;padding:.4rem 0;overflow-wrap:anywhere}
code{font-size:.9em;overflow-wrap:anywhere}
h2{font-size:1.1rem;margin:1.5rem 0 .25rem}
ol{padding-left:1.4rem;margin:.25rem 0}li{margin:.3rem 0}
.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.35rem .9rem;margin:1rem 0}
.facts dt{font-weight:600}.facts dd{margin:0;min-width:0}
@media (max-width:30rem){.facts{grid-template-columns:minmax(0,1fr)}.facts dd{margin-bottom:.4rem}}
`;

export interface LayoutProps {
  title: string;
  nonce: string;
  /** A path of this server to move on to at once (HTML's meta refresh: no script needed). */
  refreshTo?: string;
}

export function Layout({ title, nonce, refreshTo, children }: PropsWithChildren<LayoutProps>): string {
  return "<!doctype html>" + (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <meta name="robots" content="noindex" />
        {refreshTo ? <meta http-equiv="refresh" content={`0; url=${Html.escapeHtml(refreshTo)}`} /> : ""}
        <title safe>{title}</title>
        <style nonce={nonce}>{CSS}</style>
      </head>
      <body>
        <main>{children}</main>
      </body>
    </html>
  );
}
