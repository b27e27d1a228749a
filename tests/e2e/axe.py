"""axe-core in the browser tests: the accessibility rules a page must pass, run in the page."""

from pathlib import Path

from playwright.sync_api import Page

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"


def axe_violations(page: Page, within: str | None = None) -> list[str]:
    """Each violation of axe-core's rules on the page as it is now (or in the elements that
    the selector `within` picks, such as an open window), with the nodes at fault.

    The page's context must bypass its Content-Security-Policy (`bypass_csp=True`): the site
    allows no injected script, and axe-core is one."""
    if not page.evaluate("typeof axe !== 'undefined'"):  # once per page: it is half a megabyte
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async (within) => {
            const found = await axe.run(within || document, {resultTypes: ["violations"]});
            const at = (v) => v.nodes.map((n) => n.target.join(" ")).join(", ");
            return found.violations.map((v) => `${v.id}: ${v.help} at ${at(v)}`);
        }""",
        within,
    )
    return list(found)
