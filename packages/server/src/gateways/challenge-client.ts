// A payer's browser reduced to HTTP, for tests: opens a gateway's challenge page, submits a
// decision, and reads where the gateway sends the payer back.
export async function answerChallengePage(
  redirectUrl: string,
  decision: 'approve' | 'decline',
): Promise<Record<string, string>> {
  const page = await fetch(redirectUrl);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const target = action ? new URL(action.replace(/&#38;/g, '&'), redirectUrl).toString() : redirectUrl;
  const answer = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `decision=${decision}`,
    redirect: 'manual',
  });
  await answer.body?.cancel();
  const location = answer.headers.get('location');
  return location ? Object.fromEntries(new URL(location, redirectUrl).searchParams) : {};
}
