#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace dsw {

// One inter-node network from resources/knowledge/networks.tsv: the vendor-stated line rate of one
// port (or of one instance, for AWS EFA), with the source it comes from.
struct NetworkSpec {
    std::string id;     // e.g. "infiniband-hdr", as hardware.inter_node_network spells it
    double gbps = 0;    // Gbit/s, per direction
    std::string source; // source id in sources.tsv
    std::string note;   // what the figure covers (one port, one instance...)
};

class NetworkCatalog {
public:
    static const NetworkCatalog& instance();
    explicit NetworkCatalog(std::string_view tsv);

    const std::vector<NetworkSpec>& all() const { return m_networks; }
    const NetworkSpec* find(const std::string& id) const;

private:
    std::vector<NetworkSpec> m_networks;
};

} // namespace dsw
