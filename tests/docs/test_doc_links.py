"""Every relative link in the README and docs/*.md resolves: the file (or folder) exists, and an
#anchor names a heading of the Markdown file it points into (anchors made as GitHub makes them).

    /usr/bin/python3 -m pytest tests/docs
"""
import pytest

import markdown_docs


@pytest.mark.parametrize("document", markdown_docs.link_documents())
def test_every_relative_link_resolves(document):
    broken = markdown_docs.broken_links(document)
    if broken:
        pytest.fail("\n".join(broken), pytrace=False)


def test_the_anchor_of_a_heading_is_githubs():
    assert markdown_docs.slug("Explorer, design advisor and bill") == "explorer-design-advisor-and-bill"
    assert markdown_docs.slug("Packages: what is verified") == "packages-what-is-verified"
    assert markdown_docs.slug("Testcontainers (.NET)") == "testcontainers-net"
    assert markdown_docs.slug("`azurite-table` flags") == "azurite-table-flags"
