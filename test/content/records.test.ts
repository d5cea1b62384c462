/**
 * Main content made of records: a forum topic keeps all its posts, a question page its question and
 * answers, a document all its sections. Small pages written here in the markup of the platforms.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractMainContent } from '../../src/content/extract.ts';
import { parseHtml } from '../../src/html/parse.ts';

const REPLIES = [
  'Try clearing the cache folder first; the old template files stay there after an upgrade and the board keeps loading them instead of the new ones.',
  'That fixed it for me as well. I also had to purge the style cache from the administration panel before the new buttons showed up on every page.',
  'Thanks.',
  'For anyone finding this later: the same happens when the file permissions on the cache folder are wrong, so check those if clearing it does not help.',
];
const QUESTION = [
  'After upgrading the board to the new version, every topic page shows the old buttons and the editor does not load. I cleared my browser cache twice and tried another browser, but nothing changed.',
  'The upgrade itself reported no error. The database update script ran to the end, the version number in the administration panel is the new one, and the extensions I use were all disabled before I started, as the upgrade guide says.',
  'The style is the default one, with no changes of mine. The server runs the PHP version the new release asks for, and the error log has nothing from the last three days. The board is on shared hosting, if that matters.',
  'What else can I check before I restore the backup and try the upgrade again from the start?',
];

/** A phpBB (prosilver) topic page: posts are `div.post` siblings separated by `hr.divider`. */
function phpbbTopic(): string {
  const post = (id: number, user: string, text: string, bg: number, subject = 'Re: Old buttons after upgrade'): string => `<div id="p${id}" class="post has-profile bg${bg}"><div class="inner">
<dl class="postprofile" id="profile${id}"><dt><a href="/memberlist.php?u=${id}" class="username">${user}</a></dt><dd class="profile-rank">Registered User</dd><dd class="profile-posts"><strong>Posts:</strong> <a href="/search.php?author_id=${id}">${id * 3}</a></dd><dd class="profile-joined"><strong>Joined:</strong> Mon Mar 02, 2020</dd></dl>
<div class="postbody"><div id="post_content${id}"><h3><a href="#p${id}">${subject}</a></h3>
<ul class="post-buttons"><li><a href="/posting.php?mode=quote&p=${id}" class="button" title="Reply with quote"><span>Quote</span></a></li></ul>
<p class="author"><a href="/viewtopic.php?p=${id}#p${id}"><span>Post</span></a> by <strong><a href="/memberlist.php?u=${id}" class="username">${user}</a></strong> » Tue Mar 10, 2020 9:1${id % 10} am</p>
<div class="content">${text}</div>
<div id="sig${id}" class="signature">Running phpBB since 2009</div></div></div>
<div class="back2top"><a href="#top" class="top" title="Top">Top</a></div></div></div>
<hr class="divider" />`;
  return `<html><head><title>Old buttons after upgrade - Support Forum</title></head><body id="phpbb">
<div id="wrap"><div class="headerbar"><a href="/index.php">Board index</a> <a href="/faq.php">FAQ</a> <a href="/ucp.php?mode=login">Login</a> <a href="/ucp.php?mode=register">Register</a></div>
<div id="page-body"><h2 class="topic-title"><a href="/viewtopic.php?t=77">Old buttons after upgrade</a></h2>
<div class="action-bar bar-top"><a href="/posting.php?mode=reply&t=77" class="button">Post Reply</a> <div class="pagination">5 posts • Page <strong>1</strong> of <strong>1</strong></div></div>
${post(11, 'mara', QUESTION.join('<br /><br />'), 2, 'Old buttons after upgrade')}${REPLIES.map((r, k) => post(12 + k, ['tom', 'lee', 'ann', 'kit'][k]!, r, k % 2 === 0 ? 1 : 2)).join('\n')}
<div class="action-bar bar-bottom"><a href="/viewforum.php?f=3" class="left-box arrow-left">Return to “Support”</a></div>
<div class="stat-block online-list"><h3>Who is online</h3><p>Users browsing this forum: No registered users and 3 guests</p></div></div>
<div id="page-footer"><a href="/memberlist.php?mode=team">The team</a> <a href="/ucp.php?mode=delete_cookies">Delete cookies</a> All times are UTC</div></div></body></html>`;
}

test('a phpBB topic keeps every post that says something, not the profiles, buttons or signatures', () => {
  const mc = extractMainContent(parseHtml(phpbbTopic()));
  for (const q of QUESTION) assert.ok(mc.text.includes(q), mc.text);
  for (const r of REPLIES.filter((x) => x.length > 20)) assert.ok(mc.text.includes(r), `kept: ${r.slice(0, 40)}\n---\n${mc.text}`);
  assert.doesNotMatch(mc.text, /Registered User|Joined:|Running phpBB since|Quote|Who is online|Board index|Post Reply/);
  assert.equal(mc.headline, 'Old buttons after upgrade');
});

test('without records only the longest post is kept (recordLevels: -1): the rule is what keeps the thread', () => {
  const mc = extractMainContent(parseHtml(phpbbTopic()), { recordLevels: -1 });
  assert.ok(mc.text.includes(QUESTION[0]!));
  assert.equal(REPLIES.filter((t) => mc.text.includes(t)).length, 0);
});

test('a document of sections keeps all of them; a sidebar column of the same markup is not a record', () => {
  const sec = (id: string, h: string, p: string): string => `<section id="${id}"><h2>${h}</h2><p>${p}</p></section>`;
  const html = `<html><head><title>Packaging guide</title></head><body><nav><a href="/">Home</a> <a href="/guides">Guides</a></nav>
<div class="layout"><div class="col"><article><h1>Packaging guide</h1>
${sec('abstract', 'Abstract', 'This guide says how a library is packaged for the index, from the metadata file to the upload.')}
${sec('the-metadata-file', 'The metadata file', 'The metadata file names the package, its version, the people who keep it and the licence it is published under. Every field is read by the index, and a missing version stops the upload with an error that names the field. Keep the file next to the sources, under version control, so that a release can be rebuilt from any commit.')}
${sec('uploading', 'Uploading', 'Build the archives once, check them with the twine tool, then upload them with an API token.')}
</article></div>
<div class="col"><div class="box"><h4>On this site</h4><a href="/a">Installing</a> <a href="/b">Publishing</a> <a href="/c">Versioning</a></div></div></div></body></html>`;
  const mc = extractMainContent(parseHtml(html));
  assert.match(mc.text, /how a library is packaged/);
  assert.match(mc.text, /rebuilt from any commit/);
  assert.match(mc.text, /upload them with an API token/);
  assert.doesNotMatch(mc.text, /On this site|Installing|Home/);
});
