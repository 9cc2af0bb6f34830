"""Every snippet a document marks (`<!-- snippet: FILE -->` before its fence) is FILE verbatim, in
the README, every docs/*.md and the client packages' READMEs: the tests run those files, so what a
reader copies is what was tested.

    /usr/bin/python3 -m pytest tests/docs
"""
import pytest

import markdown_docs


@pytest.mark.parametrize("document", markdown_docs.snippet_documents())
def test_every_marked_snippet_is_its_file_verbatim(document):
    _, failures = markdown_docs.snippet_failures(document)
    if failures:
        pytest.fail("\n".join(failures), pytrace=False)
