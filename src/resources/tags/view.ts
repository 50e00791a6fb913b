// Wire shape of a tag (spec 2.4) and of the app's tag list.

import type { Tag } from '../../engine/types.js';

export const tagView = (tag: Tag) => ({ type: 'tag' as const, id: tag.id, name: tag.name });

export const tagsView = (tags: readonly Tag[]) => ({ type: 'tag.list' as const, tags: tags.map(tagView) });
