#include "Presets.h"

#include "io/JsonReader.h"
#include "io/PlanJson.h"

#include <nlohmann/json.hpp>

namespace planscope {

using nlohmann::json;

namespace {

Sources readSources(const json& entry)
{
    Sources s;
    if (entry.contains("sources") && entry["sources"].is_object())
        for (auto it = entry["sources"].begin(); it != entry["sources"].end(); ++it)
            if (it.value().is_string()) s[it.key()] = it.value().get<std::string>();
    if (entry.contains("source") && entry["source"].is_string()) s["*"] = entry["source"].get<std::string>();
    return s;
}

const json* arrayIn(const json& doc, const char* key, const char* file, Issues& issues)
{
    if (doc.is_discarded() || !doc.is_object() || !doc.contains(key) || !doc[key].is_array()) {
        issues.push_back(issue(Severity::Error, std::string(file) + ":" + key,
            Text(PS_TEXT("CoreText", "missing or not an array"))));
        return nullptr;
    }
    return &doc[key];
}

} // namespace

PresetCatalog PresetCatalog::fromJson(std::string_view models, std::string_view gpus, std::string_view nodes)
{
    PresetCatalog c;
    const json md = json::parse(models, nullptr, false);
    if (const json* arr = arrayIn(md, "models", "models.json", c.m_issues)) {
        for (std::size_t i = 0; i < arr->size(); ++i) {
            const json& e = (*arr)[i];
            const std::string path = "models.json:models." + std::to_string(i);
            ModelPreset p;
            p.spec.preset = e.value("id", std::string());
            readModel(e, path, p.spec, c.m_issues);
            applyModelDefaults(p.spec);
            p.sources = readSources(e);
            c.m_models.push_back(std::move(p));
        }
    }
    const json gd = json::parse(gpus, nullptr, false);
    if (const json* arr = arrayIn(gd, "gpus", "gpus.json", c.m_issues)) {
        for (std::size_t i = 0; i < arr->size(); ++i) {
            const json& e = (*arr)[i];
            GpuPreset p;
            p.spec.id = e.value("id", std::string());
            readGpu(e, "gpus.json:gpus." + std::to_string(i), p.spec, c.m_issues);
            p.sources = readSources(e);
            c.m_gpus.push_back(std::move(p));
        }
    }
    const json nd = json::parse(nodes, nullptr, false);
    if (const json* arr = arrayIn(nd, "nodes", "nodes.json", c.m_issues)) {
        for (std::size_t i = 0; i < arr->size(); ++i) {
            const json& e = (*arr)[i];
            const std::string path = "nodes.json:nodes." + std::to_string(i);
            jsonio::ObjectReader r(e, path, c.m_issues);
            if (!r.ok()) continue;
            NodePreset n;
            r.string("id", n.id);
            r.string("name", n.name);
            r.string("gpu", n.gpu);
            r.integer("gpusPerNode", n.gpusPerNode, 1, 1024);
            r.integer("nvlinkDomainNodes", n.nvlinkDomainNodes, 1, 1024);
            r.integer("podNodes", n.podNodes, 0, 1000000);
            for (auto [key, link] : { std::pair { "intraNode", &n.intraNode }, std::pair { "interNode", &n.interNode } }) {
                if (const json* l = r.find(key)) readLinkSpec(*l, jsonio::join(path, key), *link, c.m_issues);
            }
            n.sources = readSources(e);
            c.m_nodes.push_back(std::move(n));
        }
    }
    return c;
}

const PresetCatalog& PresetCatalog::builtin()
{
    static const PresetCatalog catalog = fromJson(embeddedPresetFile("models.json"), embeddedPresetFile("gpus.json"),
        embeddedPresetFile("nodes.json"));
    return catalog;
}

const ModelPreset* PresetCatalog::model(std::string_view id) const
{
    for (const auto& m : m_models)
        if (m.spec.preset == id) return &m;
    return nullptr;
}

const GpuPreset* PresetCatalog::gpu(std::string_view id) const
{
    for (const auto& g : m_gpus)
        if (g.spec.id == id) return &g;
    return nullptr;
}

const NodePreset* PresetCatalog::node(std::string_view id) const
{
    for (const auto& n : m_nodes)
        if (n.id == id) return &n;
    return nullptr;
}

} // namespace planscope
