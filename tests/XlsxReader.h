// Reads an XLSX back for the tests with Python's own zipfile and xml.etree (python3 is a test dependency), so that
// what the writer wrote is checked by a reader that is not ours: sheet names in order, and each sheet's cells as rows
// of {"t": "n" | "s", "v": value} (numbers as numbers, strings through the shared-string table; ECMA-376 Part 1,
// 18.3.1.4 c and 18.4.9 sst).
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>
#include <nlohmann/json.hpp>

namespace planscope::test {

inline nlohmann::json readXlsx(const QString& path)
{
    static const char* kScript = R"PY(
import json, sys, zipfile, re
import xml.etree.ElementTree as ET
ns = {'m': 'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
      'r': 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'}
z = zipfile.ZipFile(sys.argv[1])
shared = []
if 'xl/sharedStrings.xml' in z.namelist():
    for si in ET.fromstring(z.read('xl/sharedStrings.xml')).findall('m:si', ns):
        shared.append(''.join(t.text or '' for t in si.iter('{%s}t' % ns['m'])))
book = ET.fromstring(z.read('xl/workbook.xml'))
rels = ET.fromstring(z.read('xl/_rels/workbook.xml.rels'))
target = {r.get('Id'): r.get('Target') for r in rels}
out = {'sheets': [], 'cells': {}}
for s in book.find('m:sheets', ns):
    name = s.get('name')
    out['sheets'].append(name)
    xml = ET.fromstring(z.read('xl/' + target[s.get('{%s}id' % ns['r'])]))
    rows = []
    for row in xml.iter('{%s}row' % ns['m']):
        cells = []
        for c in row.findall('m:c', ns):
            col = 0
            for ch in re.match('[A-Z]+', c.get('r')).group(0):
                col = col * 26 + ord(ch) - 64
            while len(cells) < col - 1:
                cells.append(None)
            v = c.find('m:v', ns)
            if c.get('t') == 's':
                cells.append({'t': 's', 'v': shared[int(v.text)]})
            elif v is not None:
                cells.append({'t': 'n', 'v': float(v.text)})
            else:
                cells.append(None)
        rows.append(cells)
    out['cells'][name] = rows
print(json.dumps(out))
)PY";
    QProcess p;
    p.start(QStringLiteral("python3"), { QStringLiteral("-c"), QString::fromUtf8(kScript), path });
    if (!p.waitForFinished(60000) || p.exitCode() != 0) return nlohmann::json();
    return nlohmann::json::parse(p.readAllStandardOutput().toStdString(), nullptr, false);
}

} // namespace planscope::test
