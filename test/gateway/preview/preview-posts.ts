/**
 * What the preview tests review: a draft post and a post scheduled after the
 * tests' BUILD_TIME (2028-01-01), with the words that would give each away.
 */
import { buildSite } from '../../../build/compiler/build.ts'
import type { TempProject } from '../../helpers/project.ts'

/** BUILD_TIME of the tests is 2028-01-01: the launch is scheduled after it. */
export const RELEASE = '2029-03-03T09:00:00Z'
export const DRAFT = {
  slug: 'quokka-embargo-draft',
  title: 'Quokka embargo draft',
  phrase: 'tangerine lighthouse harmonica',
}
export const SCHEDULED = {
  slug: 'quokka-launch-scheduled',
  title: 'Quokka launch scheduled',
  phrase: 'cobalt meadow xylophone',
}

const post = (item: typeof DRAFT, extra: string, publishedAt = '2027-11-02') => `---
title: ${item.title}
summary: Under embargo.
tags: [product-update]
published_at: ${publishedAt}
${extra}authors:
  - name: Zoë Brønsted
---

Reviewers only: the ${item.phrase} programme starts soon.
`

/** Write the draft and the scheduled post into `project` and build it. */
export async function writePreviewPosts(project: TempProject): Promise<void> {
  await project.write(`content/blog-posts/${DRAFT.slug}.md`, post(DRAFT, 'draft: true\n'))
  await project.write(`content/blog-posts/${SCHEDULED.slug}.md`, post(SCHEDULED, '', RELEASE))
  await buildSite({ root: project.root })
}
