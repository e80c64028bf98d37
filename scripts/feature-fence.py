# Writes biome.json's feature fence (issue 19 item 5): for each web feature an override whose
# noRestrictedImports rule refuses imports of any other feature. Run again after adding a feature:
#   python3 scripts/feature-fence.py && npx biome format --write biome.json
import json
import os

os.chdir(os.path.join(os.path.dirname(__file__), '..'))
b = json.load(open('biome.json'))
feats = sorted(os.listdir('apps/web/src/features'))
fence = []
for f in feats:
    group = []
    for g in feats:
        if g == f:
            continue
        group += [f'{d}{g}/**' for d in ['../', '../../', '../../../', '../../../../']]
        group.append(f'**/features/{g}/**')
    message = (
        f'A feature does not import another feature ({f} imports one here): move what both use '
        'to src/api, src/components or src/lib.'
    )
    rule = {'level': 'error', 'options': {'patterns': [{'group': group, 'message': message}]}}
    fence.append(
        {
            'includes': [f'apps/web/src/features/{f}/**'],
            'linter': {'rules': {'style': {'noRestrictedImports': rule}}},
        }
    )
keep = [o for o in b['overrides'] if not o.get('includes', [''])[0].startswith('apps/web/src/features/')]
b['overrides'] = keep + fence
json.dump(b, open('biome.json', 'w'), indent=2, ensure_ascii=False)
