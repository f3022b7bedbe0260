"""The bundled level collections: found by name in the package's data, each a readable XSB file."""

from shared.sokoban import split_text
from shared.sokoban.bundled import bundled_collections


def test_the_bundled_collections_are_the_xsb_files_by_name():
    collections = bundled_collections()
    assert list(collections) == ["Grigr2001_100", "Grigr2002_40", "GrigrSpecial_40", "Holland_81"]   # no README
    assert all(file.name == f"{name}.xsb" for name, file in collections.items())


def test_each_bundled_collection_holds_as_many_levels_as_its_name_says():
    for name, file in bundled_collections().items():
        assert len(list(split_text(file.read_text(encoding="utf-8")))) == int(name.rpartition("_")[2]), name
